#!/bin/sh
# LLM metrics: reads the envelope from stdin (stdin_json: true) and appends a TSV row.
read -r payload
model=$(printf '%s' "$payload" | sed -n 's/.*"model":"\([^"]*\)".*/\1/p')
mkdir -p logs
case "$1" in
  request)
    count=$(printf '%s' "$payload" | sed -n 's/.*"messages_count":\([0-9]*\).*/\1/p')
    printf '%s\trequest\t%s\tmessages=%s\n' "$ZERO_HOOK_TIMESTAMP" "$model" "$count" >> logs/llm-metrics.tsv ;;
  response)
    ms=$(printf '%s' "$payload" | sed -n 's/.*"duration_ms":\([0-9.]*\).*/\1/p')
    printf '%s\tresponse\t%s\tlatency_ms=%s\n' "$ZERO_HOOK_TIMESTAMP" "$model" "$ms" >> logs/llm-metrics.tsv ;;
esac
