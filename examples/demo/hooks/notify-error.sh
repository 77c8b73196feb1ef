#!/bin/sh
# Error notification: a real setup would curl a chat webhook; the demo writes an outbox file.
mkdir -p logs
component=$(sed -n 's/.*"component":"\([^"]*\)".*/\1/p' "$ZERO_HOOK_PAYLOAD_FILE")
message=$(sed -n 's/.*"message":"\([^"]*\)".*/\1/p' "$ZERO_HOOK_PAYLOAD_FILE")
printf 'ALERT [%s] %s: %s\n' "$ZERO_HOOK_SESSION" "$component" "$message" >> logs/notifications.txt
echo "notified about $component" >&2
