#!/usr/bin/env bash
# Renders every page of a report site in headless Chromium (Debian package `chromium`) and fails
# on a script error, a missing image, a broken link, or a table (or the page) wider than a
# 1400 px window: one that would need horizontal scrolling, the page's or its own scroll box's.
# Screenshots (1400 px wide) go to DIR/.screens/ to look at.
# Usage: tools/check_pages.sh [reports]     check every *.html under the directory
#        tools/check_pages.sh --self-test   prove the width check fails on
#                                           tools/fixtures/wide-*.html and passes on narrow.html
# Exit status: 0 every page passed, 1 a page failed, 2 bad usage or no chromium.
set -euo pipefail
WIDTH=1400
tools=$(dirname "$(realpath "$0")")

chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "check_pages: chromium not found (apt-get install chromium)" >&2; exit 2; }

# Runs headless chromium with the given extra arguments on the file URL $1, in a throwaway
# profile. Without --disable-background-networking and friends chromium hangs on a closed network.
run_chromium() {
  local url=$1 profile
  shift
  profile=$(mktemp -d)
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" "$@" "$url" || true
  rm -rf "$profile"
}

# The script injected into a copy of a page: after load it writes, into <pre id="check-pages">,
# one line per table that does not fit (its label, its width and the width it had), and one
# for the page itself if the page scrolls sideways.
MEASURE='<script>
window.addEventListener("load", function () {
  "use strict";
  var view = document.documentElement.clientWidth, lines = [];
  function clean(s) { return s.replace(/\s+/g, " ").replace(/[\u2195\u25B2\u25BC]/g, "").trim(); }
  function heading(table) {
    if (table.caption) return clean(table.caption.textContent);
    for (var n = table; n && n !== document.body; n = n.parentElement) {
      for (var p = n.previousElementSibling; p; p = p.previousElementSibling) {
        if (/^H[1-6]$/.test(p.tagName)) return clean(p.textContent);
        var h = p.querySelectorAll("h1,h2,h3,h4,h5,h6");
        if (h.length) return clean(h[h.length - 1].textContent);
      }
    }
    return "";
  }
  function label(table) {
    var row = table.tHead ? table.tHead.rows[0] : table.rows[0];
    var cells = row ? Array.prototype.slice.call(row.cells, 0, 3).map(function (c) {
      return clean(c.textContent);
    }) : [];
    return "\"" + heading(table) + "\" [" + cells.join(" | ") + (row && row.cells.length > 3 ? " | ..." : "") + "]";
  }
  function box(table) {
    for (var n = table.parentElement; n && n !== document.body; n = n.parentElement) {
      var o = getComputedStyle(n).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return n;
    }
    return null;
  }
  document.querySelectorAll("table").forEach(function (table) {
    var r = table.getBoundingClientRect(), b = box(table);
    var wide = Math.ceil(Math.max(r.width, table.scrollWidth));
    if (r.right > view + 0.5) {
      lines.push("table " + label(table) + " is " + wide + " px wide, its right edge at " + Math.ceil(r.right) + " px > window " + view + " px");
    } else if (b && b.scrollWidth > b.clientWidth + 0.5) {
      lines.push("table " + label(table) + " is " + wide + " px wide > " + b.clientWidth + " px available (scrolls sideways)");
    }
  });
  var page = document.documentElement.scrollWidth;
  if (page > view) lines.push("page is " + page + " px wide > window " + view + " px");
  var out = document.createElement("pre");
  out.id = "check-pages";
  out.textContent = "\n" + lines.join("\n") + "\n";
  document.body.appendChild(out);
});
</script>'

# Prints one line per table of page $1 wider than the window (nothing when all fit). The page
# is copied beside itself (so its relative links still resolve) with MEASURE injected; the copy
# is removed even when interrupted (this runs in a $(...) subshell, which has its own traps).
measure_widths() {
  local page=$1 copy dom
  copy="$(dirname "$page")/.check-pages-$BASHPID.html"
  trap "rm -f $(printf %q "$copy")" EXIT INT TERM
  { sed 's#</body>##' "$page"; echo "$MEASURE</body></html>"; } >"$copy"
  dom=$(run_chromium "file://$(realpath "$copy")" --dump-dom --virtual-time-budget=5000 \
    --window-size=$WIDTH,2000 2>/dev/null)
  rm -f "$copy"
  if ! grep -q 'id="check-pages"' <<<"$dom"; then
    echo "no width measurement (chromium did not finish the page)"
    return
  fi
  sed -n '/<pre id="check-pages">/,/<\/pre>/p' <<<"$dom" | grep -v -e '<pre' -e '</pre>' |
    sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e 's/&amp;/\&/g' || true
}

# Checks one page; prints "ok" or its failures; returns 1 on a failure.
check_page() {
  local page=$1 site=$2 shots=$3 name log dir ref widths failed=0
  name=$(echo "${page#"$site"/}" | tr '/' '_')
  log=$(mktemp)
  # --enable-logging=stderr prints console messages (and uncaught exceptions) as CONSOLE lines.
  run_chromium "file://$(realpath "$page")" --enable-logging=stderr --v=0 \
    --window-size=$WIDTH,2400 --screenshot="$shots/$name.png" >"$log" 2>&1
  if grep -E "Uncaught|CONSOLE.*(Error|error)" "$log" >/dev/null; then
    echo "FAIL $page: script error"; grep -E "Uncaught|CONSOLE" "$log" | head -5; failed=1
  fi
  if grep -E "ERR_FILE_NOT_FOUND|net::ERR" "$log" >/dev/null; then
    echo "FAIL $page: a resource did not load"; grep -E "net::ERR" "$log" | head -5; failed=1
  fi
  rm -f "$log"
  dir=$(dirname "$page")
  for ref in $(grep -oE '(href|src)="[^"#]+' "$page" | sed -E 's/^(href|src)="//' | grep -vE '^(https?:|data:)' | sort -u); do
    [ -e "$dir/$ref" ] || { echo "FAIL $page: missing $ref"; failed=1; }
  done
  [ -s "$shots/$name.png" ] || { echo "FAIL $page: no screenshot"; failed=1; }
  widths=$(measure_widths "$page")
  if [ -n "$widths" ]; then
    echo "FAIL $page: too wide for a $WIDTH px window"
    sed 's/^/  /' <<<"$widths"
    failed=1
  fi
  [ $failed -eq 0 ] && echo "ok   $page"
  return $failed
}

# Checks every page under the site directory $1; returns 1 if any failed.
check_site() {
  local site=$1 shots status=0 page
  [ -d "$site" ] || { echo "check_pages: $site is not a directory" >&2; exit 2; }
  shots="$site/.screens"
  mkdir -p "$shots"
  while IFS= read -r page; do
    check_page "$page" "$site" "$shots" || status=1
  done < <(find "$site" -name '*.html' -not -path '*/.*' | sort)
  return $status
}

# Runs the check on each fixture in its own site: wide-*.html must fail naming its table,
# narrow.html must pass.
self_test() {
  local tmp fixture out status=0
  tmp=$(mktemp -d)
  for fixture in "$tools"/fixtures/*.html; do
    mkdir -p "$tmp/$(basename "$fixture" .html)"
    cp "$fixture" "$tmp/$(basename "$fixture" .html)/index.html"
    if out=$(check_site "$tmp/$(basename "$fixture" .html)"); then
      case $(basename "$fixture") in
        wide-*) echo "self-test FAIL: $(basename "$fixture") passed the width check"; status=1 ;;
        *) echo "self-test ok: $(basename "$fixture") passes" ;;
      esac
    else
      case $(basename "$fixture") in
        wide-*)
          if grep -q "too wide" <<<"$out" && grep -q "Overflowing" <<<"$out"; then
            echo "self-test ok: $(basename "$fixture") fails:"; grep "^  " <<<"$out"
          else
            echo "self-test FAIL: $(basename "$fixture") failed for another reason:"; echo "$out"; status=1
          fi ;;
        *) echo "self-test FAIL: $(basename "$fixture") failed:"; echo "$out"; status=1 ;;
      esac
    fi
  done
  rm -rf "$tmp"
  return $status
}

case ${1:-reports} in
  --self-test) self_test ;;
  -*) echo "usage: tools/check_pages.sh [DIR | --self-test]" >&2; exit 2 ;;
  *) check_site "${1:-reports}" ;;
esac
