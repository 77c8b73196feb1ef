#!/bin/sh
# PostToolUse (async): append every tool call to logs/tool-audit.jsonl; it never decides anything.
mkdir -p "$CLAUDE_PROJECT_DIR/logs"
cat >> "$CLAUDE_PROJECT_DIR/logs/tool-audit.jsonl"
