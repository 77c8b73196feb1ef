/*
 * hookwerk-hook: the warm path's client [R-HOOK-4]. Agents call it exactly as they would call
 * `hookwerk hook` (same arguments): it reads the hook input on stdin, hands the call to a running
 * `hookwerk daemon` over its Unix socket, and prints the daemon's answer (stdout, stderr, exit
 * code) as its own. A call costs this process and one round trip, not a Node start.
 *
 * Without a usable daemon (no socket, not ours, nothing listening), or when the daemon's reply is
 * incomplete (it died mid-call), it falls back to deciding in its own process: it execs
 * `node <package>/bin/hookwerk.js hook <args>` with the stdin it read (through a temp file), so
 * the answer is the cold path's, never a guess; HOOKWERK_HOOK_STARTED_MS tells it when the call
 * started, so its answer is still due before the agent's timeout (`--timeout`) [G-FAIL-4]. The node binary and the package path are baked in
 * at build time (scripts/build-launcher.js), with `node` from PATH and a path relative to this
 * binary as fallbacks. [G-PERF-1] Where a startup snapshot of the hook command was built for this
 * node and this package (`<home>/.hookwerk/cache/`, src/hook/snapshot-blob.ts), the fallback first
 * runs `node --snapshot-blob <blob> hook <args>` instead, and goes on as above only when that node
 * did not start (hook-snapshot.h says when a blob is trusted).
 *
 * When nothing listens on the socket (no socket file, or one a killed daemon left), it also starts
 * a daemon in the background for the next calls [G-WARM-1], unless HOOKWERK_DAEMON=off: it takes
 * the start lock `<socket>.lock` (O_EXCL; the same rules as src/hook/daemon-lock.ts: a lock is
 * taken over when its pid is dead or it is older than 60 s), forks, and the child double-forks
 * into `node <package>/bin/hookwerk.js daemon --log <home>/.hookwerk/daemon.log` in a session of
 * its own, cwd /, stdin /dev/null, stdout and stderr the log, every other descriptor closed (never
 * the agent's pipes), with a small environment. This process waits only for the intermediate
 * child (a fork and an exit), never for the daemon; the daemon's exec waits for this call to end
 * (at most 10 s), so that its Node start does not take the CPU from the call.
 *
 * Socket: $HOOKWERK_DAEMON_SOCKET (absolute) when set, else $HOME/.hookwerk/daemon.sock (HOME
 * unset or empty: the password database's home). Wire protocol: docs/agents-hook.md, "The warm
 * path" (and src/hook/daemon-wire.ts): every integer a u32 little endian, every field its length
 * then its bytes.
 *
 *   request: "HWKQ" 1 flags | args (each NUL-terminated) | cwd | env (each NUL-terminated) | stdin
 *   reply:   "HWKR" 1 exit-code | stdout | stderr
 *   reply 2: "HWKR" 2 exit-code flags (bit 0 FINAL) | stdout | stderr   (the system daemon's)
 *
 * [T-MGD-3] Before all that, when /run/hookwerk/daemon.sock exists, it asks the system daemon
 * (docs/managed.md): the folder root's and not group/other-writable, the socket a socket owned by
 * neither root nor this account, its listener the door of this installation running as the
 * socket's owner (peer-verify.h `verify_system_peer`). A FINAL reply is the answer; anything else
 * goes on as above (a refused socket: one stderr line). Its fallback is told the system daemon was
 * asked (HOOKWERK_HOOK_SYSTEM_ASKED), so `hookwerk hook` does not ask it a second time.
 *
 * POSIX only; built with -O2 -Wall and no warning.
 */
#define _POSIX_C_SOURCE 200809L
/* syscall(): pidfd_open, to wait for the call's end without polling (Linux ≥ 5.3). */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hook-snapshot.h"
#include "peer-verify.h"

#ifndef HOOKWERK_NODE
#define HOOKWERK_NODE "node"
#endif
#ifndef HOOKWERK_BIN
#define HOOKWERK_BIN ""
#endif

/* The same bounds as the daemon's (src/hook/daemon-wire.ts). */
#define MAX_STDIN (8u * 1024u * 1024u)
#define MAX_ARGS (64u * 1024u)
#define MAX_CWD 4096u
#define MAX_ENV (1024u * 1024u)
#define MAX_REPLY_FIELD (64u * 1024u * 1024u)
#define WIRE_VERSION 1u
/* [T-MGD-3] The reply version with flags, and its FINAL flag. */
#define REPLY_VERSION_FLAGS 2u
#define REPLY_FLAG_FINAL 1u
#define SYSTEM_DIR "/run/hookwerk"
#define SYSTEM_SOCKET "/run/hookwerk/daemon.sock"
#define FLAG_STDIN_TOO_LARGE 1u
/* The start lock's rules (src/hook/daemon-lock.ts): older than this, or naming a dead pid, it is stale. */
#define LOCK_STALE_S 60
/* The daemon's start waits for the call that started it to end, at most this long. */
#define CALLER_WAIT_MS 10000

/* ask_daemon's answers: the reply was printed; no daemon listens (start one); anything else;
   the connection closed before a byte of reply (a daemon dying, or one dropping the call). */
#define ASK_ANSWERED 0
#define ASK_FAILED (-1)
#define ASK_ABSENT (-2)
#define ASK_DROPPED (-3)

extern char **environ;

struct buf {
  unsigned char *p;
  size_t len;
  size_t cap;
};

static int buf_reserve(struct buf *b, size_t more) {
  if (b->cap - b->len >= more) return 0;
  size_t cap = b->cap == 0 ? 4096 : b->cap;
  while (cap - b->len < more) {
    if (cap > SIZE_MAX / 2) return -1;
    cap *= 2;
  }
  unsigned char *p = realloc(b->p, cap);
  if (p == NULL) return -1;
  b->p = p;
  b->cap = cap;
  return 0;
}

static int buf_put(struct buf *b, const void *data, size_t n) {
  if (buf_reserve(b, n) != 0) return -1;
  if (n > 0) memcpy(b->p + b->len, data, n);
  b->len += n;
  return 0;
}

static int put_u32(struct buf *b, uint32_t v) {
  unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                         (unsigned char)(v >> 24)};
  return buf_put(b, le, 4);
}

static uint32_t get_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Reads stdin whole, at most MAX_STDIN + 1 bytes (one more tells "too large"). A terminal is no
 * input, as for the Node command; a read error counts as too large, as there.
 */
static int read_stdin(struct buf *in, int *too_large, int *consumed) {
  *too_large = 0;
  *consumed = 0;
  if (isatty(0)) return 0;
  for (;;) {
    if (buf_reserve(in, 65536) != 0) return -1;
    size_t room = in->cap - in->len;
    if (in->len + room > MAX_STDIN + 1) room = MAX_STDIN + 1 - in->len;
    ssize_t n = read(0, in->p + in->len, room);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EBADF) return 0; /* no stdin at all */
    *consumed = 1;
    if (n < 0) {
      *too_large = 1;
      return 0;
    }
    if (n == 0) return 0;
    in->len += (size_t)n;
    if (in->len > MAX_STDIN) {
      *too_large = 1;
      return 0;
    }
  }
}

/* The account's home: $HOME, else the password database's; NULL for none, a relative one, or /. */
static const char *home_dir(void) {
  const char *home = getenv("HOME");
  if (home == NULL || home[0] == '\0' || strcmp(home, "/") == 0) {
    struct passwd *pw = getpwuid(geteuid());
    home = pw != NULL ? pw->pw_dir : NULL;
  }
  /* A relative or root home: the Node command resolves it (and says why it has none). */
  if (home == NULL || home[0] != '/' || home[1] == '\0') return NULL;
  return home;
}

/* ---- [T-SELF-4] what a project file may have set, and whether a socket is ours ---- */

/* The project settings files of each agent whose `env` reaches its hook commands (src/hook/project-env.ts). */
static const char *const CLAUDE_FILES[] = {".claude/settings.json", ".claude/settings.local.json", NULL};
static const char *const GEMINI_FILES[] = {".gemini/settings.json", NULL};
static const char *const COPILOT_FILES[] = {".github/copilot/settings.json", ".github/copilot/settings.local.json",
                                            ".claude/settings.json", ".claude/settings.local.json", NULL};
static const char *const CURSOR_FILES[] = {".cursor/hooks.json", ".claude/settings.json",
                                           ".claude/settings.local.json", NULL};
/* Larger than this, a settings file counts as naming them (the Node side reads it exactly). */
#define PROJECT_FILE_MAX (1024 * 1024)

/* `--agent A` or `--agent=A` among the arguments; "" when none. */
static const char *agent_arg(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--agent") == 0 && i + 1 < argc) return argv[i + 1];
    if (strncmp(argv[i], "--agent=", 8) == 0) return argv[i] + 8;
  }
  return "";
}

/*
 * Whether a settings file's text may name one of the variables the client takes its home or
 * socket from. Not a JSON parse, on purpose (the hot path): any quoted key of those names, or any
 * \u escape (which could spell one), counts; a false "yes" only costs the warm path for the call.
 */
static int text_names_home_vars(const char *text) {
  static const char *const needles[] = {"\"HOME\"", "\"XDG_", "\"CLAUDE_CONFIG_DIR\"", "\"CODEX_HOME\"",
                                        "\"COPILOT_HOME\"", "\"HOOKWERK_", "\\u", NULL};
  for (int i = 0; needles[i] != NULL; i++)
    if (strstr(text, needles[i]) != NULL) return 1;
  return 0;
}

/* 1 when the file at dir/name may name them (or cannot be read whole); 0 when missing or clean. */
static int file_names_home_vars(const char *dir, const char *name) {
  char file[PATH_MAX];
  if (snprintf(file, sizeof file, "%s/%s", dir, name) >= (int)sizeof file) return 1;
  int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR ? 0 : 1;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > PROJECT_FILE_MAX) {
    close(fd);
    return 1;
  }
  size_t len = 0;
  char *text = read_fd_text(fd, (size_t)st.st_size, &len);
  if (text == NULL) return 1;
  /* A NUL inside would hide the rest from strstr: count it as naming them. */
  int named = strlen(text) != len || text_names_home_vars(text);
  free(text);
  return named;
}

/* Copilot's .github/hooks/<name>.json files under `dir`. */
static int hooks_dir_names_home_vars(const char *dir) {
  char hooks[PATH_MAX];
  if (snprintf(hooks, sizeof hooks, "%s/.github/hooks", dir) >= (int)sizeof hooks) return 1;
  DIR *d = opendir(hooks);
  if (d == NULL) return errno == ENOENT || errno == ENOTDIR ? 0 : 1;
  int named = 0;
  for (struct dirent *e; !named && (e = readdir(d)) != NULL;) {
    size_t n = strlen(e->d_name);
    if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0) named = file_names_home_vars(hooks, e->d_name);
  }
  closedir(d);
  return named;
}

static int dir_names_home_vars(const char *agent, const char *dir) {
  const char *const *files = strcmp(agent, "claude") == 0    ? CLAUDE_FILES
                             : strcmp(agent, "gemini") == 0  ? GEMINI_FILES
                             : strcmp(agent, "copilot") == 0 ? COPILOT_FILES
                             : strcmp(agent, "cursor") == 0  ? CURSOR_FILES
                                                             : NULL;
  if (files == NULL) return 0; /* Codex passes its own environment, no file's */
  for (int i = 0; files[i] != NULL; i++)
    if (file_names_home_vars(dir, files[i])) return 1;
  return strcmp(agent, "copilot") == 0 && hooks_dir_names_home_vars(dir);
}

/*
 * [T-SELF-4] Whether a project settings file of the agent (in the working folder, or the folder
 * the agent names as the project) may set HOME, XDG_*, CLAUDE_CONFIG_DIR, CODEX_HOME,
 * COPILOT_HOME or a HOOKWERK_* variable for this process. Then the client takes its socket from
 * the password database's home, never from those variables; the Node side (daemon or fallback)
 * checks the values exactly and says so.
 */
static int project_may_set_home(const char *agent) {
  static const char *const project_vars[] = {"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR",
                                             "COPILOT_PROJECT_DIR", NULL};
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) != NULL && dir_names_home_vars(agent, cwd)) return 1;
  for (int i = 0; project_vars[i] != NULL; i++) {
    const char *dir = getenv(project_vars[i]);
    if (dir != NULL && dir[0] == '/' && dir_names_home_vars(agent, dir)) return 1;
  }
  return 0;
}

/* The socket's path, or NULL when there is none to try; `trusted`: the environment may choose it. */
static const char *socket_path(char *out, size_t size, int trusted) {
  if (!trusted) {
    struct passwd *pw = getpwuid(geteuid());
    const char *home = pw != NULL ? pw->pw_dir : NULL;
    if (home == NULL || home[0] != '/' || home[1] == '\0') return NULL;
    int n = snprintf(out, size, "%s/.hookwerk/daemon.sock", home);
    return n > 0 && (size_t)n < size ? out : NULL;
  }
  const char *given = getenv("HOOKWERK_DAEMON_SOCKET");
  if (given != NULL && given[0] != '\0') {
    if (given[0] != '/' || strlen(given) >= size) return NULL;
    strcpy(out, given);
    return out;
  }
  const char *home = home_dir();
  if (home == NULL) return NULL;
  int n = snprintf(out, size, "%s/.hookwerk/daemon.sock", home);
  return n > 0 && (size_t)n < size ? out : NULL;
}

static int write_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int send_all(int fd, const unsigned char *p, size_t n) {
  while (n > 0) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* A list of strings each followed by a NUL, at most `max` bytes. */
static int put_list(struct buf *b, char *const *items, size_t count, size_t max) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += strlen(items[i]) + 1;
  if (total > max || put_u32(b, (uint32_t)total) != 0) return -1;
  for (size_t i = 0; i < count; i++)
    if (buf_put(b, items[i], strlen(items[i]) + 1) != 0) return -1;
  return 0;
}

static int build_request(struct buf *req, int argc, char **argv, const struct buf *in, int too_large) {
  char cwd[MAX_CWD + 1];
  if (getcwd(cwd, sizeof cwd) == NULL || cwd[0] != '/') return -1;
  size_t envc = 0;
  while (environ != NULL && environ[envc] != NULL) envc++;
  if (buf_put(req, "HWKQ", 4) != 0 || put_u32(req, WIRE_VERSION) != 0 ||
      put_u32(req, too_large ? FLAG_STDIN_TOO_LARGE : 0) != 0)
    return -1;
  if (put_list(req, argv + 1, (size_t)(argc - 1), MAX_ARGS) != 0) return -1;
  size_t cwd_len = strlen(cwd);
  if (put_u32(req, (uint32_t)cwd_len) != 0 || buf_put(req, cwd, cwd_len) != 0) return -1;
  if (put_list(req, environ, envc, MAX_ENV) != 0) return -1;
  size_t stdin_len = too_large ? 0 : in->len;
  if (put_u32(req, (uint32_t)stdin_len) != 0 || buf_put(req, in->p, stdin_len) != 0) return -1;
  return 0;
}

/*
 * Reads the whole reply (the daemon closes after it); 0 when complete and well formed. `final`:
 * -1 for a version 1 reply, else its FINAL flag (0 or 1) [T-MGD-3].
 */
static int read_reply(int fd, struct buf *reply, int32_t *code, size_t *out_at, size_t *out_len,
                      size_t *err_at, size_t *err_len, int *final) {
  const size_t max = 16 + 8 + 2 * (size_t)MAX_REPLY_FIELD;
  for (;;) {
    if (buf_reserve(reply, 65536) != 0) return -1;
    ssize_t n = read(fd, reply->p + reply->len, reply->cap - reply->len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    reply->len += (size_t)n;
    if (reply->len > max) return -1;
  }
  const unsigned char *p = reply->p;
  size_t len = reply->len;
  if (len < 16 || memcmp(p, "HWKR", 4) != 0) return -1;
  uint32_t version = get_u32(p + 4);
  if (version != WIRE_VERSION && version != REPLY_VERSION_FLAGS) return -1;
  *code = (int32_t)get_u32(p + 8);
  size_t at = 12;
  *final = -1;
  if (version == REPLY_VERSION_FLAGS) {
    if (len < 20) return -1;
    uint32_t flags = get_u32(p + 12);
    if ((flags & ~REPLY_FLAG_FINAL) != 0) return -1;
    *final = (flags & REPLY_FLAG_FINAL) != 0;
    at = 16;
  }
  uint32_t n1 = get_u32(p + at);
  if (n1 > MAX_REPLY_FIELD || len - at - 4 < n1) return -1;
  *out_at = at + 4;
  *out_len = n1;
  at += 4 + n1;
  if (len - at < 4) return -1;
  uint32_t n2 = get_u32(p + at);
  if (n2 > MAX_REPLY_FIELD || len - at - 4 != n2) return -1;
  *err_at = at + 4;
  *err_len = n2;
  return 0;
}

/* [T-SELF-4] Whether the file at `path` is a socket (not a link to one) of `uid`; else `why`. */
static int socket_is_owned(const char *path, uid_t uid, const char **why) {
  struct stat st;
  if (lstat(path, &st) != 0 || !S_ISSOCK(st.st_mode)) {
    *why = "it is not a socket";
    return 0;
  }
  if (st.st_uid != uid) {
    *why = "it belongs to another account";
    return 0;
  }
  return 1;
}

/*
 * [T-SELF-4] Whether the socket's folder is `uid`'s alone (mode 0700): whoever can write it can
 * swap the socket. Asked once connected: a dead socket in a wider folder is still "nothing
 * listens" (a daemon is started, and tightens its own folder).
 */
static int folder_is_private(const char *path, uid_t uid, const char **why) {
  char dir[PATH_MAX];
  struct stat st;
  const char *slash = strrchr(path, '/');
  if (slash == NULL || (size_t)(slash - path) >= sizeof dir) {
    *why = "its folder cannot be checked";
    return 0;
  }
  if (slash == path) strcpy(dir, "/");
  else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != uid || (st.st_mode & 077) != 0) {
    *why = "its folder is not this account's alone (mode 0700)";
    return 0;
  }
  return 1;
}

/* The Node side (the fallback) says once why a socket was not used, and journals it [T-SELF-4]. */
#define REFUSED_ENV "HOOKWERK_HOOK_REFUSED"

static void refused(const char *path, const char *why) {
  char text[PATH_MAX + 160];
  snprintf(text, sizeof text, "%s: %s", path, why);
  setenv(REFUSED_ENV, text, 1);
}

static const char *cli_path(const char *argv0, char *out, size_t size);

/* [T-SELF-4] Whether this call's environment may choose the home (no project file may have set it). */
static int call_trusted = 1;

/*
 * One call through the daemon: ASK_ANSWERED with the reply printed; ASK_ABSENT when nothing
 * listens (no socket file, or connect refused: a killed daemon's); ASK_DROPPED when the
 * connection closed before a byte of reply; ASK_FAILED otherwise. `path`
 * gets the socket's path (empty when there is none to try).
 */
static int ask_daemon(int argc, char **argv, const struct buf *in, int too_large, int *exit_code,
                      char *path, size_t path_size) {
  /* [T-SELF-4] A project file may have set HOME or HOOKWERK_DAEMON_SOCKET: then neither is used. */
  int trusted = !project_may_set_home(agent_arg(argc, argv));
  call_trusted = trusted;
  if (socket_path(path, path_size, trusted) == NULL) {
    path[0] = '\0';
    return ASK_FAILED;
  }
  struct stat st;
  /* Nothing there: a daemon for the next calls, unless this call's environment is in doubt. */
  if (lstat(path, &st) != 0) return errno == ENOENT && trusted ? ASK_ABSENT : ASK_FAILED;
  const char *why = NULL;
  /* Only a socket of this account: one put there by someone else could answer anything. */
  if (!socket_is_owned(path, geteuid(), &why)) {
    refused(path, why);
    return ASK_FAILED;
  }
  char script_buf[PATH_MAX];
  const char *script = cli_path(argv[0], script_buf, sizeof script_buf);
  struct buf req = {0}, reply = {0};
  int result = ASK_FAILED;
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return ASK_FAILED;
  (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  strcpy(addr.sun_path, path);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    if ((errno == ECONNREFUSED || errno == ENOENT) && trusted) result = ASK_ABSENT;
    goto done;
  }
  /* [T-SELF-4] Whoever listens must be this account's `hookwerk daemon` of this installation. */
  if (!folder_is_private(path, geteuid(), &why)) {
    refused(path, why);
    goto done;
  }
  if (script == NULL) {
    refused(path, "this installation's bin/hookwerk.js is not found");
    goto done;
  }
  int peer = verify_daemon_peer(fd, geteuid(), script, &why);
  if (peer == PEER_GONE) {
    /* A daemon dying as it accepted: as a connection closed before any reply [G-WARM-1]. */
    result = ASK_DROPPED;
    goto done;
  }
  if (peer == PEER_REFUSED) {
    refused(path, why);
    goto done;
  }
  if (build_request(&req, argc, argv, in, too_large) != 0) goto done;
  if (send_all(fd, req.p, req.len) != 0) {
    result = ASK_DROPPED; /* closed before it took the request: no reply either */
    goto done;
  }
  (void)shutdown(fd, SHUT_WR);
  int32_t code;
  size_t out_at, out_len, err_at, err_len;
  int final;
  if (read_reply(fd, &reply, &code, &out_at, &out_len, &err_at, &err_len, &final) != 0) {
    if (reply.len == 0) result = ASK_DROPPED;
    goto done;
  }
  /* As `hookwerk hook` prints it: stderr, then stdout. A closed pipe is the agent's business. */
  (void)write_all(2, reply.p + err_at, err_len);
  (void)write_all(1, reply.p + out_at, out_len);
  *exit_code = code;
  result = ASK_ANSWERED;
done:
  close(fd);
  free(req.p);
  free(reply.p);
  return result;
}

/* [T-MGD-3] Set for the fallback: the system daemon was asked; `hookwerk hook` does not ask again. */
#define SYSTEM_ASKED_ENV "HOOKWERK_HOOK_SYSTEM_ASKED"

/* [T-MGD-3] A system socket not used: one line on stderr; the call goes on to the user's path. */
static void system_refused(const char *why) {
  fprintf(stderr, "hookwerk: the system daemon socket %s was not used (%s); this call goes on to the user's path [T-MGD-3]\n",
          SYSTEM_SOCKET, why);
}

/*
 * [T-MGD-3] Asks the system daemon: 1 when its FINAL reply was printed (`*exit_code` set), else 0
 * (no socket, refused, no reply, or a reply without FINAL: the call goes on).
 */
static int ask_system(int argc, char **argv, const struct buf *in, int too_large, int *exit_code) {
  struct stat st;
  if (lstat(SYSTEM_SOCKET, &st) != 0) return 0;
  setenv(SYSTEM_ASKED_ENV, "1", 1);
  struct stat dir;
  if (lstat(SYSTEM_DIR, &dir) != 0 || !S_ISDIR(dir.st_mode) || dir.st_uid != 0 || (dir.st_mode & 022) != 0) {
    system_refused(SYSTEM_DIR " must be owned by root and not writable by group or others");
    return 0;
  }
  if (!S_ISSOCK(st.st_mode)) {
    system_refused("it is not a socket");
    return 0;
  }
  if (st.st_uid == 0 || st.st_uid == geteuid()) {
    system_refused(st.st_uid == 0 ? "it is root's, not the daemon account's" : "it is your own account's");
    return 0;
  }
  char script_buf[PATH_MAX], door[PATH_MAX + 64];
  const char *script = cli_path(argv[0], script_buf, sizeof script_buf);
  const char *slash = script == NULL ? NULL : strrchr(script, '/');
  if (slash == NULL ||
      snprintf(door, sizeof door, "%.*s/../dist/native/hookwerk-accept", (int)(slash - script), script) >=
          (int)sizeof door) {
    system_refused("this installation's bin/hookwerk.js is not found");
    return 0;
  }
  struct buf req = {0}, reply = {0};
  int answered = 0;
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  strcpy(addr.sun_path, SYSTEM_SOCKET);
  /* Nothing listening (a stopped daemon's socket stays): the user's path, silently. */
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) goto done;
  const char *why = NULL;
  int peer = verify_system_peer(fd, st.st_uid, door, script, &why);
  if (peer == PEER_GONE) goto done;
  if (peer != PEER_OK) {
    system_refused(why);
    goto done;
  }
  if (build_request(&req, argc, argv, in, too_large) != 0) goto done;
  if (send_all(fd, req.p, req.len) != 0) goto done;
  (void)shutdown(fd, SHUT_WR);
  int32_t code;
  size_t out_at, out_len, err_at, err_len;
  int final;
  if (read_reply(fd, &reply, &code, &out_at, &out_len, &err_at, &err_len, &final) != 0) goto done;
  if (final != 1) goto done;
  (void)write_all(2, reply.p + err_at, err_len);
  (void)write_all(1, reply.p + out_at, out_len);
  *exit_code = code;
  answered = 1;
done:
  close(fd);
  free(req.p);
  free(reply.p);
  return answered;
}

/* Makes what was read of stdin the stdin of the process about to be exec'd. */
static int replay_stdin(const struct buf *in) {
  FILE *f = tmpfile();
  if (f == NULL) return -1;
  if (in->len > 0 && fwrite(in->p, 1, in->len, f) != in->len) return -1;
  if (fflush(f) != 0) return -1;
  int fd = fileno(f);
  if (lseek(fd, 0, SEEK_SET) != 0) return -1;
  if (dup2(fd, 0) < 0) return -1;
  (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
  return 0;
}

/* <package>/bin/hookwerk.js: the baked path, else the one next to this binary (dist/native/). */
static const char *cli_path(const char *argv0, char *out, size_t size) {
  if (HOOKWERK_BIN[0] != '\0' && access(HOOKWERK_BIN, R_OK) == 0) return HOOKWERK_BIN;
  const char *slash = strrchr(argv0, '/');
  if (slash == NULL) return HOOKWERK_BIN[0] != '\0' ? HOOKWERK_BIN : NULL;
  int n = snprintf(out, size, "%.*s/../../bin/hookwerk.js", (int)(slash - argv0), argv0);
  return n > 0 && (size_t)n < size ? out : NULL;
}

/* ---- [G-WARM-1] starting a daemon in the background ---- */

/* HOOKWERK_DAEMON=off (any case): start none. */
static int autostart_off(void) {
  const char *v = getenv("HOOKWERK_DAEMON");
  return v != NULL && strcasecmp(v, "off") == 0;
}

/* Whether `pid` has exited: gone, or a zombie its parent has not reaped yet. */
static int exited(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return 1;
  char stat_path[64], stat_text[512];
  snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", (long)pid);
  int fd = open(stat_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, stat_text, sizeof stat_text - 1);
  close(fd);
  if (n <= 0) return 0;
  stat_text[n] = '\0';
  char *paren = strrchr(stat_text, ')');
  return paren != NULL && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

/* The pid a lock's text names (digits, then white space), or -1. */
static pid_t parse_pid(const char *text) {
  char *end = NULL;
  errno = 0;
  long pid = strtol(text, &end, 10);
  if (errno != 0 || end == text || pid <= 0 || pid > INT_MAX) return -1;
  while (*end != '\0' && isspace((unsigned char)*end)) end++;
  return *end == '\0' ? (pid_t)pid : -1;
}

/* Whether a lock file someone else made can be taken over (src/hook/daemon-lock.ts). */
static int lock_stale(const char *lock) {
  int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return errno == ENOENT;
  struct stat st;
  char text[33];
  ssize_t n = -1;
  int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (regular) n = read(fd, text, sizeof text - 1);
  close(fd);
  if (!regular) return 0;
  if (time(NULL) - st.st_mtime >= LOCK_STALE_S) return 1;
  if (n <= 0) return 0; /* empty: a start is under way */
  text[n] = '\0';
  pid_t pid = parse_pid(text);
  return pid > 0 && exited(pid);
}

/*
 * Whether the lock beside `sock` names a process that has exited. A call whose connection closed
 * before any reply met a daemon dying (killed, its other threads still holding the socket while
 * its main thread is already a zombie) or a live one dropping the call (busy, another version):
 * only the first may start a new daemon, whatever the lock's age.
 */
static int lock_owner_exited(const char *sock) {
  char lock[PATH_MAX], text[33];
  if (snprintf(lock, sizeof lock, "%s.lock", sock) >= (int)sizeof lock) return 0;
  int fd = open(lock, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  pid_t pid = parse_pid(text);
  return pid > 0 && exited(pid);
}

/* The lock, newly made (an open descriptor), or -1: a start is under way, or no folder for it. */
static int take_lock(const char *lock) {
  for (int attempt = 0; attempt < 2; attempt++) {
    int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) return fd;
    if (errno != EEXIST || attempt > 0 || !lock_stale(lock)) return -1;
    if (unlink(lock) != 0 && errno != ENOENT) return -1;
  }
  return -1;
}

/* The variables the daemon keeps (src/hook/daemon-autostart.ts, daemonEnv). */
static int keep_var(const char *entry) {
  static const char *const keep[] = {"HOME=", "PATH=", "USER=", "LOGNAME=", "TMPDIR=", "LANG=", "TZ=", NULL};
  static const char *const per_call[] = {"HOOKWERK_HOOK_COLD=", "HOOKWERK_HOOK_STARTED_MS=",
                                         "HOOKWERK_DAEMON=", NULL};
  for (int i = 0; per_call[i] != NULL; i++)
    if (strncmp(entry, per_call[i], strlen(per_call[i])) == 0) return 0;
  if (strncmp(entry, "LC_", 3) == 0 || strncmp(entry, "HOOKWERK_", 9) == 0) return 1;
  for (int i = 0; keep[i] != NULL; i++)
    if (strncmp(entry, keep[i], strlen(keep[i])) == 0) return 1;
  return 0;
}

/*
 * Waits until the call that started the daemon has ended (at most CALLER_WAIT_MS): the daemon's
 * own Node start then never competes with that call for the CPU. A pidfd where the kernel has one
 * (readable once the process exits), else a look every 10 ms.
 */
static void wait_for_caller(pid_t caller) {
#ifdef SYS_pidfd_open
  int pidfd = (int)syscall(SYS_pidfd_open, caller, 0);
  if (pidfd >= 0) {
    struct pollfd p = {.fd = pidfd, .events = POLLIN};
    while (poll(&p, 1, CALLER_WAIT_MS) < 0 && errno == EINTR) {
    }
    close(pidfd);
    return;
  }
#endif
  struct timespec tick = {0, 10 * 1000 * 1000};
  for (int waited = 0; waited < CALLER_WAIT_MS && !exited(caller); waited += 10) nanosleep(&tick, NULL);
}

/* In the daemon-to-be (a grandchild, in its own session): its descriptors, then exec. */
static void exec_daemon(const char *node, const char *cli, const char *log) {
  int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  int log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (null_fd < 0 || log_fd < 0) _exit(127);
  if (dup2(null_fd, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0) _exit(127);
  /* Nothing of the agent's stays open: it waits for its pipes to close. */
  long max = sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (long fd = 3; fd < max; fd++) close((int)fd);
  if (chdir("/") != 0) _exit(127);
  size_t envc = 0;
  while (environ != NULL && environ[envc] != NULL) envc++;
  char **envp = calloc(envc + 1, sizeof *envp);
  if (envp == NULL) _exit(127);
  size_t kept = 0;
  for (size_t i = 0; i < envc; i++)
    if (keep_var(environ[i])) envp[kept++] = environ[i];
  char *args[] = {(char *)node, (char *)cli, "daemon", "--log", (char *)log, NULL};
  if (strchr(node, '/') != NULL) execve(node, args, envp);
  environ = envp;
  args[0] = "node";
  execvp("node", args);
  _exit(127);
}

/* Starts a daemon for `sock` in the background, unless one is starting; never waits for it. */
static void start_daemon(const char *sock, const char *argv0) {
  if (autostart_off() || sock[0] == '\0') return;
  const char *home = home_dir();
  char own[PATH_MAX], log[PATH_MAX], lock[PATH_MAX], cli_buf[PATH_MAX];
  if (home == NULL) return;
  if (snprintf(own, sizeof own, "%s/.hookwerk", home) >= (int)sizeof own) return;
  if (snprintf(log, sizeof log, "%s/daemon.log", own) >= (int)sizeof log) return;
  if (snprintf(lock, sizeof lock, "%s.lock", sock) >= (int)sizeof lock) return;
  const char *cli = cli_path(argv0, cli_buf, sizeof cli_buf);
  if (cli == NULL) return;
  /* hookwerk's own folder holds the log (and the default socket): 0700 [R-HOOK-4]. */
  if (mkdir(own, 0700) != 0 && errno != EEXIST) return;
  int lock_fd = take_lock(lock);
  if (lock_fd < 0) return;
  /* This process: it execs the cold fallback next, under the same pid, and ends with the call. */
  pid_t caller = getpid();
  pid_t child = fork();
  if (child < 0) {
    close(lock_fd);
    unlink(lock);
    return;
  }
  if (child == 0) {
    /* A session of its own: no terminal, no signal of the agent's process group. */
    (void)setsid();
    pid_t daemon = fork();
    if (daemon < 0) {
      unlink(lock);
      _exit(1);
    }
    if (daemon > 0) {
      /* The lock names the daemon before the caller goes on (the pid stays the same over exec). */
      char pid_text[24];
      int n = snprintf(pid_text, sizeof pid_text, "%ld\n", (long)daemon);
      if (n <= 0 || write(lock_fd, pid_text, (size_t)n) != n) unlink(lock);
      _exit(0);
    }
    close(lock_fd);
    wait_for_caller(caller);
    const char *node = HOOKWERK_NODE;
    if (strchr(node, '/') != NULL && access(node, X_OK) != 0) node = "node";
    exec_daemon(node, cli, log);
  }
  close(lock_fd);
  while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
  }
}

/* When this call started, in ms since the epoch: the fallback's answer is due from then [G-FAIL-4]. */
static long long started_ms;

/* Decides in a process of its own: exec node on the CLI with the same arguments. Never returns. */
static void fallback(int argc, char **argv, const struct buf *in, int consumed) {
  if (consumed && replay_stdin(in) != 0) {
    fprintf(stderr, "hookwerk-hook: cannot keep the input for the fallback: %s\n", strerror(errno));
    exit(1);
  }
  char cli_buf[PATH_MAX];
  const char *cli = cli_path(argv[0], cli_buf, sizeof cli_buf);
  if (cli == NULL) {
    fprintf(stderr, "hookwerk-hook: cannot find bin/hookwerk.js (rebuild hookwerk)\n");
    exit(1);
  }
  /* The Node command then decides itself rather than ask the daemon again; it drops this variable. */
  setenv("HOOKWERK_HOOK_COLD", "1", 1);
  /* Node's own start comes later: the agent's timeout counts from this process's. */
  char started[32];
  if (started_ms > 0 && snprintf(started, sizeof started, "%lld", started_ms) > 0)
    setenv("HOOKWERK_HOOK_STARTED_MS", started, 1);
  /* [G-PERF-1] From the startup snapshot, where a trusted one fits this node and this package. */
  int code;
  const char *home = NULL;
  if (call_trusted) {
    home = home_dir();
  } else {
    struct passwd *pw = getpwuid(geteuid());
    home = pw != NULL && pw->pw_dir[0] == '/' && pw->pw_dir[1] != '\0' ? pw->pw_dir : NULL;
  }
  if (strchr(HOOKWERK_NODE, '/') != NULL && snapshot_fallback(home, HOOKWERK_NODE, cli, argc, argv, &code))
    exit(code);
  char **args = calloc((size_t)argc + 3, sizeof *args);
  if (args == NULL) exit(1);
  args[0] = (char *)HOOKWERK_NODE;
  args[1] = (char *)cli;
  args[2] = "hook";
  for (int i = 1; i < argc; i++) args[i + 2] = argv[i];
  if (strchr(HOOKWERK_NODE, '/') != NULL) execv(HOOKWERK_NODE, args);
  args[0] = "node";
  execvp("node", args);
  fprintf(stderr, "hookwerk-hook: cannot run node: %s\n", strerror(errno));
  exit(1);
}

int main(int argc, char **argv) {
  struct buf in = {0};
  int too_large = 0, consumed = 0;
  if (argc < 1) return 1;
  struct timeval now;
  if (gettimeofday(&now, NULL) == 0) started_ms = (long long)now.tv_sec * 1000 + now.tv_usec / 1000;
  if (read_stdin(&in, &too_large, &consumed) != 0) {
    fprintf(stderr, "hookwerk-hook: out of memory reading stdin\n");
    return 1;
  }
  int code = 1;
  /* [T-MGD-3] The system daemon first: its FINAL reply is the answer. */
  if (ask_system(argc, argv, &in, too_large, &code)) return code & 0xff;
  char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
  int asked = ask_daemon(argc, argv, &in, too_large, &code, path, sizeof path);
  if (asked == ASK_ANSWERED) return code & 0xff;
  /* [G-WARM-1] Nothing listens, or what did was a daemon dying: a daemon for the next calls;
     this one is decided cold. */
  if (asked == ASK_ABSENT || (asked == ASK_DROPPED && lock_owner_exited(path))) start_daemon(path, argv[0]);
  fallback(argc, argv, &in, consumed);
  return 1;
}
