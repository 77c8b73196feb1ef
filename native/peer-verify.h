/*
 * [T-SELF-4] Who answers on a daemon socket: the C client (hookwerk-hook.c) and the Node client's
 * helper (hookwerk-peer.c) believe a socket only when the process at its other end runs as the
 * expected account and is a `hookwerk daemon` of this installation. A socket anyone of the account
 * put at the path (a `node -e` server answering "allow") is then refused. One function, taking the
 * expected uid, so a system daemon's account can be checked the same way (managed mode).
 *
 * What "a hookwerk daemon of this installation" means here (docs/threat-model.md):
 *   - the kernel's peer credentials (SO_PEERCRED) name the expected uid;
 *   - /proc/PID/exe is a node binary (its file name `node`, `nodejs` or `node` + a version);
 *   - /proc/PID/cmdline is `<node> <script> daemon …` with no option before the script, and the
 *     script resolves (symlinks and a relative path against /proc/PID/cwd) to the same file as
 *     this installation's bin/hookwerk.js;
 *   - its environment sets no NODE_OPTIONS, LD_PRELOAD or LD_AUDIT: code loaded before ours would
 *     make any process look like our daemon (an autostarted daemon never has them).
 * The same account can still ptrace the daemon or start one under a debugger: the check raises the
 * bar against a planted socket, it does not make the account a boundary (managed mode does).
 *
 * Header only, for two small programs; POSIX + Linux /proc. Where SO_PEERCRED is missing the check
 * says so (PEER_UNCHECKED) and the caller decides what that is worth.
 */
#ifndef HOOKWERK_PEER_VERIFY_H
#define HOOKWERK_PEER_VERIFY_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define PEER_OK 0
#define PEER_REFUSED 1
#define PEER_UNCHECKED 2
/* The process that listened has exited (a daemon dying as it accepted): no one to believe or refuse. */
#define PEER_GONE 3

/* The most of /proc/PID/cmdline and /proc/PID/environ read: a daemon's are small. */
#define PEER_PROC_MAX (64 * 1024)

/* Reads a /proc file of `pid` whole (at most PEER_PROC_MAX bytes); its length, or -1. */
static ssize_t peer_proc_read(long pid, const char *name, char *out, size_t size) {
  char file[64];
  snprintf(file, sizeof file, "/proc/%ld/%s", pid, name);
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t len = 0;
  for (;;) {
    if (len + 1 >= size) break;
    ssize_t n = read(fd, out + len, size - 1 - len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    len += (size_t)n;
  }
  close(fd);
  out[len] = '\0';
  return (ssize_t)len;
}

/* Whether a file name is a node binary's: node, nodejs, node22, node-22.1 … */
static int peer_is_node_name(const char *exe) {
  const char *base = strrchr(exe, '/');
  base = base == NULL ? exe : base + 1;
  if (strcmp(base, "nodejs") == 0) return 1;
  if (strncmp(base, "node", 4) != 0) return 0;
  for (const char *c = base + 4; *c != '\0'; c++)
    if (!((*c >= '0' && *c <= '9') || *c == '.' || *c == '-')) return 0;
  return 1;
}

/* Whether the NUL-separated `environ` sets one of the variables that load code ahead of ours. */
static int peer_env_injects(const char *env, size_t len) {
  static const char *const names[] = {"NODE_OPTIONS=", "LD_PRELOAD=", "LD_AUDIT=", NULL};
  for (size_t at = 0; at < len; at += strlen(env + at) + 1)
    for (int i = 0; names[i] != NULL; i++) {
      size_t n = strlen(names[i]);
      if (strncmp(env + at, names[i], n) == 0 && env[at + n] != '\0') return 1;
    }
  return 0;
}

#ifdef SO_PEERCRED
/*
 * The pid of the process at the other end of `fd` when the kernel's peer credentials say it runs
 * as `expected_uid` (never root when `refuse_root`: the system daemon); else 0 with `why`.
 */
static inline long peer_pid_as(int fd, uid_t expected_uid, int refuse_root, const char **why) {
  /* struct ucred's layout on Linux, declared here so no _GNU_SOURCE is needed. */
  struct {
    pid_t pid;
    uid_t uid;
    gid_t gid;
  } cred;
  socklen_t cred_len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) != 0 || cred_len != sizeof cred) {
    *why = "the kernel gave no peer credentials";
    return 0;
  }
  if (cred.uid != expected_uid || (refuse_root && expected_uid == 0)) {
    *why = refuse_root ? "the system daemon runs as another account than its socket's owner"
                       : "the daemon runs as another account";
    return 0;
  }
  if (cred.pid <= 0) {
    *why = refuse_root ? "the system daemon has no process id" : "the daemon has no process id";
    return 0;
  }
  return (long)cred.pid;
}
#endif

/*
 * Checks the process at the other end of the connected Unix socket `fd`: PEER_OK, PEER_REFUSED
 * with `why` (one short phrase), PEER_GONE when that process has exited (its /proc entry gone, or
 * a zombie whose program is released), or PEER_UNCHECKED (no peer credentials on this platform).
 * `script` is this installation's bin/hookwerk.js. There is no exception for tests: whatever the
 * environment says, the peer must be the daemon itself (tests start a real one) [T-SELF-4].
 */
static int verify_daemon_peer(int fd, uid_t expected_uid, const char *script, const char **why) {
#ifdef SO_PEERCRED
  long pid = peer_pid_as(fd, expected_uid, 0, why);
  if (pid <= 0) return PEER_REFUSED;
  char link[64], exe[PATH_MAX];
  snprintf(link, sizeof link, "/proc/%ld/exe", pid);
  ssize_t n = readlink(link, exe, sizeof exe - 1);
  if (n <= 0) {
    *why = errno == ENOENT ? "the daemon has exited" : "the daemon's program cannot be read";
    return errno == ENOENT ? PEER_GONE : PEER_REFUSED;
  }
  exe[n] = '\0';
  if (!peer_is_node_name(exe)) {
    *why = "the daemon is not a node process";
    return PEER_REFUSED;
  }
  char *text = malloc(PEER_PROC_MAX);
  if (text == NULL) {
    *why = "out of memory";
    return PEER_REFUSED;
  }
  int result = PEER_REFUSED;
  *why = "the daemon is not `hookwerk daemon` of this installation";
  ssize_t len = peer_proc_read(pid, "cmdline", text, PEER_PROC_MAX);
  const char *arg1 = NULL, *arg2 = NULL;
  if (len > 0) {
    size_t first = strlen(text) + 1;
    if (first < (size_t)len) {
      arg1 = text + first;
      size_t second = first + strlen(arg1) + 1;
      if (second < (size_t)len) arg2 = text + second;
    }
  }
  if (arg1 == NULL || arg2 == NULL || arg1[0] == '-' || strcmp(arg2, "daemon") != 0) goto done;
  char given[PATH_MAX + 64], real_given[PATH_MAX], real_script[PATH_MAX];
  /* A relative script is relative to the daemon's own working folder. */
  if (arg1[0] == '/') {
    if (snprintf(given, sizeof given, "%s", arg1) >= (int)sizeof given) goto done;
  } else if (snprintf(given, sizeof given, "/proc/%ld/cwd/%s", pid, arg1) >= (int)sizeof given) {
    goto done;
  }
  if (realpath(given, real_given) == NULL || realpath(script, real_script) == NULL) goto done;
  if (strcmp(real_given, real_script) != 0) goto done;
  len = peer_proc_read(pid, "environ", text, PEER_PROC_MAX);
  if (len < 0 || len >= PEER_PROC_MAX - 1) {
    *why = "the daemon's environment cannot be read whole";
    goto done;
  }
  if (peer_env_injects(text, (size_t)len)) {
    *why = "the daemon was started with NODE_OPTIONS, LD_PRELOAD or LD_AUDIT";
    goto done;
  }
  result = PEER_OK;
done:
  free(text);
  return result;
#else
  (void)fd;
  (void)expected_uid;
  (void)script;
  *why = "this platform gives no peer credentials (SO_PEERCRED)";
  return PEER_UNCHECKED;
#endif
}

/* Reads the real and effective uid of `pid` from /proc/PID/status (readable by every account). */
static inline int peer_proc_uids(long pid, unsigned long *real, unsigned long *effective) {
  char text[4096];
  if (peer_proc_read(pid, "status", text, sizeof text) <= 0) return -1;
  const char *line = strstr(text, "\nUid:");
  if (line == NULL) return -1;
  char *end = NULL;
  *real = strtoul(line + 5, &end, 10);
  if (end == line + 5) return -1;
  const char *next = end;
  *effective = strtoul(next, &end, 10);
  return end == next ? -1 : 0;
}

/* The parent pid of `pid` (/proc/PID/status), or -1. */
static inline long peer_proc_ppid(long pid) {
  char text[4096];
  if (peer_proc_read(pid, "status", text, sizeof text) <= 0) return -1;
  const char *line = strstr(text, "\nPPid:");
  if (line == NULL) return -1;
  return strtol(line + 6, NULL, 10);
}

/*
 * Whether the NUL-separated cmdline's argument `index` is an absolute path to the same file as
 * `want` (device and inode, after symlinks: the same file seen through a bind mount counts).
 */
static inline int peer_arg_is(const char *cmdline, size_t len, int index, const char *want) {
  size_t at = 0;
  for (int i = 0; i < index && at < len; i++) at += strlen(cmdline + at) + 1;
  if (at >= len || cmdline[at] != '/') return 0;
  struct stat a, b;
  if (stat(cmdline + at, &a) != 0 || stat(want, &b) != 0) return 0;
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * [T-MGD-3] The system daemon's socket: its listener is the door (native/hookwerk-accept.c) of this
 * installation, running as `expected_uid` (the socket's owner, the daemon's account), whose parent
 * is `node <script> daemon …` of this installation running as that account too. Across accounts
 * the kernel hides a process's exe, cwd and environment (the daemon dropped from root: it is not
 * dumpable), so the program is told by /proc/PID/cmdline (absolute paths) and /proc/PID/status,
 * which every account may read. What holds is the uid: only root and that account can run a
 * process as it; the rest catches an installation mix-up (another hookwerk's daemon).
 */
static inline int verify_system_peer(int fd, uid_t expected_uid, const char *door, const char *script, const char **why) {
#ifdef SO_PEERCRED
  long pid = peer_pid_as(fd, expected_uid, 1, why);
  if (pid <= 0) return PEER_REFUSED;
  char *text = malloc(PEER_PROC_MAX);
  if (text == NULL) {
    *why = "out of memory";
    return PEER_REFUSED;
  }
  int result = PEER_REFUSED;
  ssize_t len = peer_proc_read(pid, "cmdline", text, PEER_PROC_MAX);
  if (len < 0) {
    *why = "the system daemon has exited";
    result = PEER_GONE;
    goto done;
  }
  *why = "the system socket's listener is not the door of this installation (hookwerk-accept)";
  if (!peer_arg_is(text, (size_t)len, 0, door)) goto done;
  long parent = peer_proc_ppid(pid);
  unsigned long real = 0, effective = 0;
  *why = "the door's parent is not `hookwerk daemon --system` of this installation";
  if (parent <= 1 || peer_proc_uids(parent, &real, &effective) != 0) goto done;
  if (real != (unsigned long)expected_uid || effective != (unsigned long)expected_uid) goto done;
  len = peer_proc_read(parent, "cmdline", text, PEER_PROC_MAX);
  if (len <= 0 || !peer_is_node_name(text) || !peer_arg_is(text, (size_t)len, 1, script)) goto done;
  size_t at = strlen(text) + 1;
  at += strlen(text + at) + 1;
  if (at >= (size_t)len || strcmp(text + at, "daemon") != 0) goto done;
  result = PEER_OK;
done:
  free(text);
  return result;
#else
  (void)fd;
  (void)expected_uid;
  (void)door;
  (void)script;
  *why = "this platform gives no peer credentials (SO_PEERCRED)";
  return PEER_UNCHECKED;
#endif
}

#endif
