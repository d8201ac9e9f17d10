#!/usr/bin/env bash
# Files vendored from Debian packages are byte for byte what the package installs, so that updating one is a copy
# (and a read of the package's changelog), never a hand edit:
#
#   Sources/PodiumHTTP/Resources/console/qrcode.js   node-qrcode-generator   /usr/share/nodejs/qrcode-generator/qrcode.js
#
# (the console draws display links' QR codes with it; its licence is qrcode.js.LICENSE beside it). ops/services.sh
# installs the package; ops/test.sh runs this check before building. Fails naming the file that differs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
vendored="Sources/PodiumHTTP/Resources/console/qrcode.js"
package=node-qrcode-generator
installed=/usr/share/nodejs/qrcode-generator/qrcode.js

if [ ! -f "$installed" ]; then
    echo "vendored-check: no $installed: install $package (apt-get install $package, or bash ops/services.sh)" >&2
    exit 1
fi
if ! cmp -s "$root/$vendored" "$installed"; then
    echo "vendored-check: $vendored differs from $installed ($package $(dpkg-query -W -f '${Version}' "$package" 2>/dev/null || echo '?')):" \
        "copy the package's file again, and say in qrcode.js.LICENSE which version it is" >&2
    exit 1
fi
echo "vendored-check: $vendored is $package's file"
