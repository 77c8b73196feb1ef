#!/usr/bin/env bash
# postToolUse: one JSON line per tool call in logs/tool-audit.jsonl (it never decides).
set -euo pipefail
mkdir -p logs
jq -c '{at: .timestamp, session: .sessionId, tool: .toolName, result: .toolResult.resultType}' >>logs/tool-audit.jsonl
