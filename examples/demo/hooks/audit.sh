#!/bin/sh
# Audit log: one JSON line per tool event, read from the environment channel.
# Large payloads (> 8 KiB) are only in the file channel, so fall back to it.
mkdir -p "$(dirname "$AUDIT_LOG")"
if [ -n "${ZERO_HOOK_PAYLOAD:-}" ]; then
  printf '%s\n' "$ZERO_HOOK_PAYLOAD" >> "$AUDIT_LOG"
else
  cat "$ZERO_HOOK_PAYLOAD_FILE" >> "$AUDIT_LOG" && echo >> "$AUDIT_LOG"
fi
