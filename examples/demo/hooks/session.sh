#!/bin/sh
# Session tracking: event, session and time of every turn boundary, from the file channel.
mkdir -p logs
printf '%s\t%s\t%s\t%s\n' "$ZERO_HOOK_TIMESTAMP" "$ZERO_HOOK_SESSION" "$ZERO_HOOK_EVENT" \
  "$(tr -d '\n' < "$ZERO_HOOK_PAYLOAD_FILE" | sed -n 's/.*"payload":\(.*\)}$/\1/p')" >> logs/sessions.tsv
