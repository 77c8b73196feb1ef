#!/usr/bin/env bash
# permissionRequest: approve the test runner without asking; everything else falls through.
set -euo pipefail
command="$(jq -r '.toolInput.command // ""')"
case "$command" in
  "npm test" | "npm run test"*) echo '{"behavior":"allow"}' ;;
esac
