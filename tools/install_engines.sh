#!/bin/sh
# Installs the UCI engines Debian packages, the external engines `replab bench` runs the
# conformance scenarios against (they go to /usr/games). Run as root on Debian or Ubuntu.
set -eu
ENGINES="stockfish ethereal-chess toga2 glaurung fairy-stockfish"
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_engines.sh: apt-get not found (this script is for Debian and Ubuntu)" >&2
    exit 2
fi
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $ENGINES
for e in $ENGINES; do
    printf '%s: %s\n' "$e" "$(dpkg-query -W -f='${Version}' "$e")"
done
