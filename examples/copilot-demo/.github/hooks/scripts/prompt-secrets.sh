#!/usr/bin/env bash
# userPromptSubmitted: drop prompts that carry a credential (Copilot CLI honours decision: block).
set -euo pipefail
prompt="$(jq -r '.prompt // ""')"
if grep -Eq '(ghp_[A-Za-z0-9]{36}|sk-[A-Za-z0-9-]{10,}|api_key=)' <<<"$prompt"; then
  echo '{"decision":"block","reason":"the prompt contains a credential; remove it and try again"}'
fi
