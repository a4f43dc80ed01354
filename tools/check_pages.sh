#!/usr/bin/env bash
# Renders every page of a report site in headless Chromium (Debian package `chromium`) and fails
# on a script error, a missing image or a broken link. Screenshots go to DIR/.screens/ to look at.
# Usage: tools/check_pages.sh [reports]
set -euo pipefail
site=${1:-reports}
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "check_pages: chromium not found (apt-get install chromium)" >&2; exit 2; }
shots="$site/.screens"
mkdir -p "$shots"
status=0
while IFS= read -r page; do
  name=$(echo "${page#"$site"/}" | tr '/' '_')
  log=$(mktemp)
  profile=$(mktemp -d)
  # --enable-logging=stderr prints console messages (and uncaught exceptions) as CONSOLE lines.
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 --window-size=1300,2400 \
    --screenshot="$shots/$name.png" "file://$(realpath "$page")" >"$log" 2>&1 || true
  if grep -E "Uncaught|CONSOLE.*(Error|error)" "$log" >/dev/null; then
    echo "FAIL $page: script error"; grep -E "Uncaught|CONSOLE" "$log" | head -5; status=1
  fi
  if grep -E "ERR_FILE_NOT_FOUND|net::ERR" "$log" >/dev/null; then
    echo "FAIL $page: a resource did not load"; grep -E "net::ERR" "$log" | head -5; status=1
  fi
  dir=$(dirname "$page")
  for ref in $(grep -oE '(href|src)="[^"#]+' "$page" | sed -E 's/^(href|src)="//' | grep -vE '^(https?:|data:)' | sort -u); do
    [ -e "$dir/$ref" ] || { echo "FAIL $page: missing $ref"; status=1; }
  done
  [ -s "$shots/$name.png" ] || { echo "FAIL $page: no screenshot"; status=1; }
  rm -rf "$log" "$profile"
  [ $status -eq 0 ] && echo "ok   $page"
done < <(find "$site" -name '*.html' -not -path '*/.*' | sort)
exit $status
