#!/bin/sh
# A Claude Code PreToolUse hook, as people write them: the tool call's JSON on stdin; a deny on
# stdout. The three examples run it unchanged, each from its own agent runtime.
input=$(cat)
case "$input" in
  *'rm -rf'*)
    printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed in this project"}}'
    ;;
esac
