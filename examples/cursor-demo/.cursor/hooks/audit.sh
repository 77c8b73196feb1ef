#!/bin/sh
# afterFileEdit / afterShellExecution: append the event to logs/audit.jsonl; it never decides anything.
mkdir -p "$CURSOR_PROJECT_DIR/logs"
cat >> "$CURSOR_PROJECT_DIR/logs/audit.jsonl"
echo >> "$CURSOR_PROJECT_DIR/logs/audit.jsonl"
echo '{}'
