#!/bin/sh
# A Claude Code PreToolUse hook: exit 2 blocks the call, and stderr is the reason the model sees.
cat >/dev/null
echo "delete_all is not allowed: notes are kept (hook .claude/hooks/no-delete.sh)" >&2
exit 2
