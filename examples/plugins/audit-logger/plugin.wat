;; audit-logger — an example hookwerk WASM plugin, written by hand in WebAssembly text.
;;
;; It implements wit/hook.wit (world `hook`):
;;   on-event: func(event: string, payload-json: string) -> result<_, string>
;; through the canonical ABI: the host copies both strings into this module's memory with
;; `cabi_realloc`, calls `prx:plugin/hooks@0.1.0#on-event(event-ptr, event-len, payload-ptr,
;; payload-len)`, reads the result from the returned address ([u8 tag][pad][i32 ptr][i32 len]:
;; tag 0 = ok, 1 = err with a UTF-8 message) and then calls `cabi_post_…` to let it free memory.
;;
;; What it does, per event:
;; - counts it (the worker stays warm, so the count spans events);
;; - checks that payload-json is a JSON object ("{" first): otherwise err("… not a JSON object");
;; - on "error" events returns err("audit-logger: the agent reported an error (event #N)"), so
;;   `hookwerk emit error --wait` shows what a plugin error record looks like;
;; - returns ok for everything else.
;;
;; Build: node examples/plugins/build.js   (writes plugin.wasm beside this file)
(module
  (memory (export "memory") 1)
  (global $heap (mut i32) (i32.const 4096))
  (global $count (mut i32) (i32.const 0))

  ;; Bump allocator: good enough for a hook that keeps nothing between calls (reset in post-return).
  (func (export "cabi_realloc") (param $old i32) (param $oldsz i32) (param $align i32) (param $newsz i32) (result i32)
    (local $p i32)
    (local.set $p (i32.and (i32.add (global.get $heap) (i32.sub (local.get $align) (i32.const 1)))
                           (i32.sub (i32.const 0) (local.get $align))))
    (global.set $heap (i32.add (local.get $p) (local.get $newsz)))
    (if (i32.gt_u (global.get $heap) (i32.mul (memory.size) (i32.const 65536)))
      (then
        ;; Out of memory (the host caps it at [resources] max_memory_mb): trap rather than corrupt.
        (if (i32.eq (memory.grow (i32.add (i32.shr_u (i32.sub (global.get $heap) (i32.mul (memory.size) (i32.const 65536)))
                                                     (i32.const 16))
                                          (i32.const 1)))
                    (i32.const -1))
          (then unreachable))))
    (local.get $p))

  (data (i32.const 64) "error")
  (data (i32.const 80) "audit-logger: payload-json is not a JSON object")
  (data (i32.const 160) "audit-logger: the agent reported an error (event #")
  (data (i32.const 224) ")")

  ;; streq(a, alen, b, blen) -> 1 when both byte strings are equal
  (func $streq (param $a i32) (param $al i32) (param $b i32) (param $bl i32) (result i32)
    (local $i i32)
    (if (i32.ne (local.get $al) (local.get $bl)) (then (return (i32.const 0))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $al)))
        (if (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $i)))
                    (i32.load8_u (i32.add (local.get $b) (local.get $i))))
          (then (return (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.const 1))

  ;; itoa(value, ptr) -> length: the decimal digits of an unsigned value, written at ptr
  (func $itoa (param $v i32) (param $p i32) (result i32)
    (local $n i32) (local $t i32) (local $i i32)
    (local.set $t (local.get $v))
    (loop $count
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (local.set $t (i32.div_u (local.get $t) (i32.const 10)))
      (br_if $count (i32.ne (local.get $t) (i32.const 0))))
    (local.set $i (local.get $n))
    (loop $digits
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (i32.store8 (i32.add (local.get $p) (local.get $i))
                  (i32.add (i32.const 48) (i32.rem_u (local.get $v) (i32.const 10))))
      (local.set $v (i32.div_u (local.get $v) (i32.const 10)))
      (br_if $digits (i32.ne (local.get $i) (i32.const 0))))
    (local.get $n))

  ;; Writes result::err(ptr, len) into the return area at 0 and returns its address.
  (func $err (param $p i32) (param $l i32) (result i32)
    (i32.store8 (i32.const 0) (i32.const 1))
    (i32.store (i32.const 4) (local.get $p))
    (i32.store (i32.const 8) (local.get $l))
    (i32.const 0))

  (func (export "prx:plugin/hooks@0.1.0#on-event")
        (param $ep i32) (param $el i32) (param $pp i32) (param $pl i32) (result i32)
    (local $n i32)
    (global.set $count (i32.add (global.get $count) (i32.const 1)))
    ;; The envelope is a JSON object: {"event":…,"timestamp":…,"session_id":…,"payload":{…}}
    (if (i32.or (i32.eqz (local.get $pl)) (i32.ne (i32.load8_u (local.get $pp)) (i32.const 0x7b)))
      (then (return (call $err (i32.const 80) (i32.const 47)))))
    (if (call $streq (local.get $ep) (local.get $el) (i32.const 64) (i32.const 5))
      (then
        ;; message at 1024: prefix ++ count ++ ")"
        (memory.copy (i32.const 1024) (i32.const 160) (i32.const 50))
        (local.set $n (call $itoa (global.get $count) (i32.const 1074)))
        (memory.copy (i32.add (i32.const 1074) (local.get $n)) (i32.const 224) (i32.const 1))
        (return (call $err (i32.const 1024) (i32.add (i32.const 51) (local.get $n))))))
    (i32.store8 (i32.const 0) (i32.const 0))
    (i32.const 0))

  (func (export "cabi_post_prx:plugin/hooks@0.1.0#on-event") (param i32)
    (global.set $heap (i32.const 4096)))
)
