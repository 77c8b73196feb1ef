#!/usr/bin/env bash
# preToolUse on bash: refuse destructive commands with Copilot's JSON deny.
# Copilot CLI 1.0.102 sends toolArgs as an object; its docs say a JSON string: accept both.
set -euo pipefail
input="$(cat)"
command="$(jq -r '(.toolArgs | if type == "string" then fromjson else . end) | .command // ""' <<<"$input")"
deny() {
  jq -cn --arg r "$1" '{permissionDecision: "deny", permissionDecisionReason: $r}'
  exit 0
}
if grep -Eq '\brm\s+-[a-z]*(rf|fr)' <<<"$command"; then deny "recursive force delete (rm -rf) is not allowed here"; fi
if grep -Eq '\bsudo\b' <<<"$command"; then deny "sudo is not allowed in this project"; fi
if grep -Eq '\bgit\s+push\b.*--force' <<<"$command"; then deny "force-pushing is not allowed"; fi
exit 0
