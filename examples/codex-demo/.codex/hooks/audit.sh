#!/bin/sh
# PostToolUse (async): append every tool call to logs/tool-audit.jsonl; it never decides anything.
# Codex runs hooks in the session's folder and gives no project variable: paths are relative.
mkdir -p logs
cat >> logs/tool-audit.jsonl
