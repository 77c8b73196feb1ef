/*
 * hookwerk-launcher: starts hook processes for the engine, so that the agent's own (large)
 * process never forks [X-PROC-1]. A small, long-lived process: the engine writes spawn requests
 * to its stdin and reads events from its stdout, both as length-prefixed frames.
 *
 * Usage: hookwerk-launcher [ENGINE_PID]. Given the engine's pid, a launcher whose parent is
 * already another process (the engine died before the launcher could watch it) exits at once.
 *
 * Frame: u32 length (little endian, of what follows), u8 type, payload.
 * Strings are u32 length + bytes.
 *
 * Requests:
 *   1 SPAWN  u32 id, u32 flags (1: stdin bytes follow, 2: a payload file follows, 4: the run keeps
 *            its children), u32 argc, u32 envc, u32 text_len, u32 stdin_len, u32 payload_len,
 *            then text_len bytes of NUL-terminated strings: cgroup_procs (may be empty), cwd,
 *            argc * argv, envc * env ("NAME=value"), [payload_path]; then stdin_len bytes of
 *            stdin, payload_len bytes of payload file content. One text block: the engine writes
 *            it with one call, not one per string. A string holding a NUL breaks the count, and the
 *            run fails ("request"). The payload file is created (0600, never over an existing
 *            file) before the fork and removed once the process has exited [P-PAY-2].
 *   2 DETACH u32 id: stop reading this run's output (leftover processes may hold the pipes)
 *   3 SIGNAL u32 id, i32 signal: signal the run's process group (the engine may not know its pid
 *            yet, see below); ignored once the run has exited
 * Events:
 *   101 STARTED u32 id, i32 pid
 *   102 FAILED  u32 id, i32 errno, str stage
 *   103 STDOUT  u32 id, bytes          104 STDERR u32 id, bytes
 *   105 EXIT    u32 id, i32 code (-1 when killed), i32 signal (0 when it exited),
 *               i32 left (1 when some process of its group, or of its cgroup, is still there)
 *   106 EOF     u32 id, u8 stream (1 stdout, 2 stderr)
 *
 * Events of a run that has a cgroup are held (STARTED, output, EOF) and leave with its EXIT, or
 * HOLD_MS after the first held one at the latest: a short hook costs the engine one wake-up, not
 * three. The engine kills such a run through its cgroup, or with SIGNAL, so it never waits for the
 * pid. A run without a cgroup (process group only) reports STARTED at once: should this launcher
 * die, the engine needs the pid to kill the group.
 *
 * Containment [X-PROC-2, X-PROC-5]:
 * - The child joins its process group (and cgroup, when one is given) before exec, so nothing it
 *   starts can be missed, and it execs with no descriptor but 0, 1, 2 (close_range, marking the
 *   rest close-on-exec). The launcher closes what it inherited from the engine when it starts.
 * - The launcher is a child subreaper: every orphan of a hook (double fork, setsid, a process that
 *   left its cgroup) becomes its child. When a run's main process exits, or an orphan does (its own
 *   children are then ours), it reads its list of children (/proc/self/task/<pid>/children) and
 *   kills every orphan that does not belong: a process belongs while it is in the cgroup of a run
 *   whose main process still runs (for a run without a cgroup: in its process group), or in that
 *   of a run flagged "keeps its children" whose main process has exited. Without a cgroup, what
 *   such a run leaves outside its group (setsid) cannot be told from an escapee: once a run that
 *   keeps its children has started without a cgroup, orphans outside every known group are spared.
 * - When the engine goes away (stdin closes, or the engine dies: PR_SET_PDEATHSIG sends SIGTERM,
 *   which is caught), it kills every running run's process group and cgroup, every cgroup that a
 *   run which does not keep its children used, and every orphan but those of exited runs that
 *   keep their children; then it exits.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
/* clone3's arguments up to `cgroup` (CLONE_ARGS_SIZE_VER2), declared here: old headers lack them. */
struct hw_clone_args {
  uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size,
      cgroup;
};
#define HW_CLONE_VM 0x00000100ULL
#define HW_CLONE_VFORK 0x00004000ULL
#define HW_CLONE_INTO_CGROUP 0x200000000ULL

#define MAX_RUNS 1024
#define MAX_FRAME (64 * 1024 * 1024)
#define CHUNK 65536

struct run {
  int used;
  uint32_t id;
  pid_t pid;
  int out, err;          /* read ends of the child's stdout and stderr, -1 when closed */
  int in;                /* write end of the child's stdin, -1 when done */
  char *stdin_buf;
  size_t stdin_len, stdin_off;
  int exited;
  char *payload_path;    /* removed once the process has exited */
  char *cgroup_procs;    /* the run's cgroup.procs, "" when it has none */
  int keep;              /* its processes may outlive it (SPAWN flag 4) */
  int status;            /* wait status, once exited */
  int report;            /* exited, EXIT not sent yet */
};

static struct run runs[MAX_RUNS];
/* Runs whose main process has not been reaped: children beyond these are orphans. */
static int nlive;
/* Written by the SIGCHLD and SIGTERM handlers: wakes poll(). */
static int sigchld_pipe[2];
static volatile sig_atomic_t term_requested;
/* /proc/self/task/<pid>/children, read again (pread) whenever orphans may be there; -1 without it. */
static int children_fd = -1;

/* A list of strings the launcher keeps (cgroup folders). */
struct strlist {
  char **v;
  size_t n, cap;
};
/* cgroups that runs which do not keep their children used: all killed when the engine goes away. */
static struct strlist used;
/* Past this many, folders that are gone are forgotten (a removed one is forgotten at once). */
#define USED_PRUNE 64
/* cgroups of runs that keep their children and whose main process exited: what is in them stays. */
static struct strlist kept;

struct pids {
  pid_t *v;
  size_t n, cap;
};
/* Process groups of runs without a cgroup that keep their children, once their main exited. */
static struct pids kept_groups;
/* A run that keeps its children started without a cgroup: orphans we cannot place are spared. */
static int unplaceable_kept;

static void kill_all_and_exit(void);

static void die(const char *what) {
  fprintf(stderr, "hookwerk-launcher: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR) {
        if (term_requested) kill_all_and_exit();
        continue;
      }
      if (errno == EAGAIN) {
        struct pollfd w = {fd, POLLOUT, 0};
        poll(&w, 1, -1);
        continue;
      }
      kill_all_and_exit(); /* the engine is gone */
    }
    p += n;
    len -= (size_t)n;
  }
}

static void put_u32(char *p, uint32_t v) {
  p[0] = (char)(v & 0xff);
  p[1] = (char)((v >> 8) & 0xff);
  p[2] = (char)((v >> 16) & 0xff);
  p[3] = (char)((v >> 24) & 0xff);
}

static uint32_t get_u32(const char *p) {
  const unsigned char *u = (const unsigned char *)p;
  return (uint32_t)u[0] | ((uint32_t)u[1] << 8) | ((uint32_t)u[2] << 16) | ((uint32_t)u[3] << 24);
}

/*
 * Events are collected while one turn of the loop handles what poll() reported, and leave in one
 * write before the next poll: the engine wakes once per turn, not once per event (four hooks
 * started together cost it one read, not four). A buffer over OUT_FLUSH bytes leaves at once.
 */
#define OUT_FLUSH (256 * 1024)
#define HOLD_MS 20
static char *outbuf;
static size_t outlen, outcap;
/* Whether outbuf holds a frame that must leave now (EXIT, FAILED, an unheld STARTED). */
static int urgent;
/* When held frames must leave at the latest (CLOCK_MONOTONIC ms), 0 when none are held. */
static int64_t hold_until;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void flush_out(void) {
  urgent = 0;
  hold_until = 0;
  if (outlen == 0) return;
  write_all(STDOUT_FILENO, outbuf, outlen);
  outlen = 0;
}

/* poll()'s timeout: -1 when nothing is held, else the ms left until held frames must leave. */
static int hold_timeout(void) {
  if (outlen == 0 || hold_until == 0) return -1;
  int64_t left = hold_until - now_ms();
  return left <= 0 ? 0 : (int)left;
}

static void out_append(const char *bytes, size_t n) {
  if (outlen + n > outcap) {
    flush_out();
    if (n > outcap) {
      write_all(STDOUT_FILENO, bytes, n);
      return;
    }
  }
  memcpy(outbuf + outlen, bytes, n);
  outlen += n;
}

/*
 * One event frame: type, id, then up to three extra i32 and/or a byte string. `hold`: it may wait
 * (up to HOLD_MS) for the run's EXIT, to leave in the same write.
 */
static void emit_frame(uint8_t type, uint32_t id, const int32_t *ints, int nints, const char *bytes,
                       size_t nbytes, int bytes_with_len, int hold) {
  size_t len = 1 + 4 + 4 * (size_t)nints + (bytes_with_len ? 4 : 0) + nbytes;
  char head[4 + 1 + 4 + 12 + 4];
  size_t h = 0;
  put_u32(head, (uint32_t)len);
  h += 4;
  head[h++] = (char)type;
  put_u32(head + h, id);
  h += 4;
  for (int i = 0; i < nints; i++) {
    put_u32(head + h, (uint32_t)ints[i]);
    h += 4;
  }
  if (bytes_with_len) {
    put_u32(head + h, (uint32_t)nbytes);
    h += 4;
  }
  out_append(head, h);
  if (nbytes > 0) out_append(bytes, nbytes);
  if (!hold) urgent = 1;
  else if (hold_until == 0) hold_until = now_ms() + HOLD_MS;
  if (outlen >= OUT_FLUSH) flush_out();
}

static void emit(uint8_t type, uint32_t id, const int32_t *ints, int nints, const char *bytes, size_t nbytes,
                 int bytes_with_len) {
  emit_frame(type, id, ints, nints, bytes, nbytes, bytes_with_len, 0);
}

static int has_cgroup(const struct run *r) {
  return r->cgroup_procs != NULL && r->cgroup_procs[0] != 0;
}

/* A run with a cgroup can be killed without its pid: its STARTED, output and EOF may wait. */
static int holds(const struct run *r) {
  return has_cgroup(r);
}

static void on_sigchld(int sig) {
  (void)sig;
  int saved = errno;
  char c = 0;
  if (write(sigchld_pipe[1], &c, 1) < 0) { /* the loop reaps anyway */ }
  errno = saved;
}

/* SIGTERM (also our PR_SET_PDEATHSIG): the loop kills everything and exits, see kill_all_and_exit. */
static void on_term(int sig) {
  term_requested = 1;
  on_sigchld(sig);
}

/*
 * Our scheduling policy. While we wait for requests we are SCHED_BATCH: a request wakes us while
 * the agent's thread is still in its write(), and as a normal task we would often run right
 * there, on the agent's CPU, and the agent's event loop would wait for our fork. SCHED_BATCH tasks
 * do not preempt on wakeup. While we start hooks we are a normal task again: the exec of each
 * hook wakes us, and as SCHED_BATCH we would wait behind that very hook (~0.5 ms for /bin/true)
 * before starting the next one, while other CPUs idle. Hooks always get the normal policy.
 */
static int batch_now = -1;

static void set_batch(int on) {
  if (batch_now == on) return;
  struct sched_param param = {0};
  if (sched_setscheduler(0, on ? SCHED_BATCH : SCHED_OTHER, &param) == 0) batch_now = on;
}

static void set_nonblock(int fd) {
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static struct run *find_run(uint32_t id) {
  for (int i = 0; i < MAX_RUNS; i++)
    if (runs[i].used && runs[i].id == id) return &runs[i];
  return NULL;
}

/*
 * Whether the cgroup whose cgroup.procs is `procs` still holds a process: v2 says so in
 * cgroup.events ("populated 0|1", first line), v1 lists them in cgroup.procs. Unknown counts as yes.
 */
static int cgroup_populated(const char *procs) {
  if (procs == NULL || procs[0] == 0) return 0;
  char path[4096];
  const char *slash = strrchr(procs, '/');
  size_t dir = slash != NULL ? (size_t)(slash - procs) + 1 : 0;
  if (dir + sizeof "cgroup.events" > sizeof path) return 1;
  memcpy(path, procs, dir);
  memcpy(path + dir, "cgroup.events", sizeof "cgroup.events");
  char buf[64];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    return n >= 11 && memcmp(buf, "populated 0", 11) == 0 ? 0 : 1;
  }
  fd = open(procs, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? 0 : 1;
  ssize_t n = read(fd, buf, 1);
  close(fd);
  return n == 0 ? 0 : 1;
}

/* --- lists, files and cgroups (the launcher's side of [X-PROC-5]) --- */

static void pids_add(struct pids *p, pid_t pid) {
  if (p->n == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 64;
    pid_t *v = realloc(p->v, cap * sizeof *v);
    if (v == NULL) die("realloc");
    p->v = v;
    p->cap = cap;
  }
  p->v[p->n++] = pid;
}

static int pids_has(const struct pids *p, pid_t pid) {
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i] == pid) return 1;
  return 0;
}

static int strlist_has(const struct strlist *l, const char *s) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i], s) == 0) return 1;
  return 0;
}

static void strlist_add(struct strlist *l, const char *s) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    char **v = realloc(l->v, cap * sizeof *v);
    if (v == NULL) die("realloc");
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n] = strdup(s);
  if (l->v[l->n] == NULL) die("strdup");
  l->n++;
}

/* Forgets `s` (list order is not kept). */
static void strlist_drop(struct strlist *l, const char *s) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i], s) == 0) {
      free(l->v[i]);
      l->v[i] = l->v[--l->n];
      return;
    }
}

/* Appends the decimal numbers of `buf` (separated by anything else) to `out`. */
static void parse_pids(const char *buf, size_t len, struct pids *out) {
  pid_t v = 0;
  for (size_t i = 0; i <= len; i++) {
    char c = i < len ? buf[i] : ' ';
    if (c >= '0' && c <= '9') {
      v = v * 10 + (c - '0');
      continue;
    }
    if (v > 0) pids_add(out, v);
    v = 0;
  }
}

/* One buffer for the /proc and cgroup files read below. */
static char *rdbuf;
static size_t rdcap;

/* The whole file from offset 0 (pread: a /proc file is made anew) into rdbuf; its length, or -1. */
static ssize_t pread_all(int fd) {
  if (rdbuf == NULL) {
    rdcap = 16384;
    rdbuf = malloc(rdcap);
    if (rdbuf == NULL) die("malloc");
  }
  size_t len = 0;
  for (;;) {
    if (len + 1 >= rdcap) {
      char *b = realloc(rdbuf, 2 * rdcap);
      if (b == NULL) die("realloc");
      rdbuf = b;
      rdcap *= 2;
    }
    ssize_t n = pread(fd, rdbuf + len, rdcap - len - 1, (off_t)len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) {
      rdbuf[len] = 0;
      return (ssize_t)len;
    }
    len += (size_t)n;
  }
}

/* Appends the pids listed in `path` (a cgroup.procs); 0, or errno (ENOENT: the cgroup is gone). */
static int read_pids(const char *path, struct pids *out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  ssize_t n = pread_all(fd);
  int e = n < 0 ? errno : 0;
  close(fd);
  if (n > 0) parse_pids(rdbuf, (size_t)n, out);
  return e;
}

/* Writes `text` to `dir`/`name`; 0, or errno. */
static int write_in(const char *dir, const char *name, const char *text) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) return ENAMETOOLONG;
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  ssize_t n = write(fd, text, strlen(text));
  int e = n < 0 ? errno : 0;
  close(fd);
  return e;
}

/* The folder part of `file` into `buf`; 0 when there is none or it does not fit. */
static int dir_of(const char *file, char *buf, size_t size) {
  const char *slash = strrchr(file, '/');
  size_t n = slash != NULL ? (size_t)(slash - file) : 0;
  if (n == 0 || n >= size) return 0;
  memcpy(buf, file, n);
  buf[n] = 0;
  return 1;
}

/* SIGKILL to every process listed in cgroup `dir` and in the cgroups below it. */
static void kill_listed(const char *dir, int depth) {
  char path[4096];
  struct pids p = {0};
  if ((size_t)snprintf(path, sizeof path, "%s/cgroup.procs", dir) < sizeof path) read_pids(path, &p);
  for (size_t i = 0; i < p.n; i++) kill(p.v[i], SIGKILL);
  free(p.v);
  if (depth >= 32) return;
  DIR *d = opendir(dir);
  if (d == NULL) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path) kill_listed(path, depth + 1);
  }
  closedir(d);
}

/*
 * Removes cgroup `dir` once nothing is in it, and the empty cgroups below it first when it has
 * some (a hook may make them, e.g. one that runs hookwerk itself), deepest first; whether it is gone.
 */
static int remove_cgroup_tree(const char *dir, int depth) {
  if (rmdir(dir) == 0 || errno == ENOENT) return 1;
  if (depth >= 32) return 0;
  DIR *d = opendir(dir);
  if (d == NULL) return errno == ENOENT;
  char path[4096];
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_type != DT_DIR || e->d_name[0] == '.') continue;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path)
      remove_cgroup_tree(path, depth + 1);
  }
  closedir(d);
  return rmdir(dir) == 0 || errno == ENOENT;
}

/*
 * Kills every process of cgroup `dir` and below, as the engine does (containment.ts): one write to
 * cgroup.kill (v2, Linux >= 5.14), else frozen (v2 cgroup.freeze, v1 freezer.state) so that
 * nothing forks meanwhile, each listed process killed, thawed.
 */
static void kill_cgroup(const char *dir) {
  if (write_in(dir, "cgroup.kill", "1") == 0) return;
  int v2 = write_in(dir, "cgroup.freeze", "1") == 0;
  int v1 = !v2 && write_in(dir, "freezer.state", "FROZEN") == 0;
  kill_listed(dir, 0);
  if (v2) write_in(dir, "cgroup.freeze", "0");
  if (v1) write_in(dir, "freezer.state", "THAWED");
}

/* Remembers the cgroup of a run that does not keep its children (killed when the engine goes away). */
static void note_used(const char *procs) {
  char dir[4096];
  if (!dir_of(procs, dir, sizeof dir) || strlist_has(&used, dir)) return;
  if (used.n >= USED_PRUNE)
    for (size_t i = 0; i < used.n;) {
      if (access(used.v[i], F_OK) == 0) {
        i++;
        continue;
      }
      free(used.v[i]);
      used.v[i] = used.v[--used.n];
    }
  strlist_add(&used, dir);
}

/*
 * Run cgroups to remove [X-PROC-2]: a run that left nothing has its cgroup removed, but not before
 * its EXIT leaves, nor before a request or a child event that is waiting: the loop removes one
 * whenever poll() finds nothing to do (an rmdir costs ~30 us here, and a batch of four runs would
 * otherwise hold its EXITs, or the next start, for four of them). Never to be used again: the
 * engine names every run cgroup anew (names only grow), and a folder that exists is never used.
 * Bounded: past DOOMED_MAX, removed at once. One that a process entered meanwhile (EBUSY) is
 * tried again after the next event, and at exit; the engine removes what is left at its close.
 */
#define DOOMED_MAX 64
static struct strlist doomed;
/* doomed.v[0 .. doomed_tried) were tried since the last event and are still there (busy). */
static size_t doomed_tried;

/* A removed run cgroup is no longer killed at exit: it holds nothing, and it is gone. */
static int remove_run_cgroup(const char *dir) {
  if (!remove_cgroup_tree(dir, 0)) return 0;
  strlist_drop(&used, dir);
  return 1;
}

/* The cgroup of a run that left nothing: removed when the launcher is idle (see above). */
static void doom(const char *dir) {
  if (doomed.n >= DOOMED_MAX) remove_run_cgroup(dir);
  else strlist_add(&doomed, dir);
}

/* Whether a doomed cgroup waits for its first (or, after an event, next) try. */
static int doomed_waiting(void) {
  return doomed_tried < doomed.n;
}

/* Tries the next doomed cgroup: gone, it is forgotten; busy, it waits for the next event. */
static void remove_doomed_one(void) {
  size_t i = doomed_tried;
  if (!remove_run_cgroup(doomed.v[i])) {
    doomed_tried++;
    return;
  }
  free(doomed.v[i]);
  memmove(doomed.v + i, doomed.v + i + 1, (doomed.n - i - 1) * sizeof *doomed.v);
  doomed.n--;
}

/* The launcher's children: one read of /proc/self/task/<pid>/children, else a walk of /proc. */
static void list_children(struct pids *out) {
  out->n = 0;
  if (children_fd >= 0) {
    ssize_t n = pread_all(children_fd);
    if (n >= 0) {
      parse_pids(rdbuf, (size_t)n, out);
      return;
    }
  }
  DIR *d = opendir("/proc");
  if (d == NULL) return;
  pid_t self = getpid();
  char path[64];
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t n = pread_all(fd);
    close(fd);
    /* "pid (comm) state ppid ...": comm may hold anything, so read after the last ')'. */
    char *paren = n > 0 ? strrchr(rdbuf, ')') : NULL;
    char state;
    int ppid;
    if (paren != NULL && sscanf(paren + 1, " %c %d", &state, &ppid) == 2 && ppid == self)
      pids_add(out, (pid_t)atoi(e->d_name));
  }
  closedir(d);
}

/* The run whose main process is `pid` and still runs. */
static struct run *run_of_pid(pid_t pid) {
  for (int i = 0; i < MAX_RUNS; i++)
    if (runs[i].used && !runs[i].exited && runs[i].pid == pid) return &runs[i];
  return NULL;
}

/* The launcher is going away: runs that keep their children no longer protect anything new. */
static int exiting;

/* A run that keeps its children exited: what is left of it stays (in its cgroup, or its group). */
static void remember_kept(const struct run *r) {
  if (exiting) return;
  char dir[4096];
  if (!has_cgroup(r)) {
    if (!pids_has(&kept_groups, r->pid)) pids_add(&kept_groups, r->pid);
  } else if (dir_of(r->cgroup_procs, dir, sizeof dir) && !strlist_has(&kept, dir)) {
    strlist_add(&kept, dir);
  }
}

/*
 * The processes that may stay when orphans are killed: those in the cgroup of a run whose main
 * process still runs (none when exiting), and those in a kept cgroup. Kept cgroups that are gone
 * or empty are forgotten, and so are kept groups that are gone.
 */
static void collect_spared(struct pids *out) {
  out->n = 0;
  if (!exiting)
    for (int i = 0; i < MAX_RUNS; i++)
      if (runs[i].used && !runs[i].exited && has_cgroup(&runs[i])) read_pids(runs[i].cgroup_procs, out);
  char path[4096];
  for (size_t i = 0; i < kept.n;) {
    size_t before = out->n;
    int e = (size_t)snprintf(path, sizeof path, "%s/cgroup.procs", kept.v[i]) < sizeof path
                ? read_pids(path, out)
                : ENAMETOOLONG;
    if (e == ENOENT || e == ENAMETOOLONG || (e == 0 && out->n == before)) {
      free(kept.v[i]);
      kept.v[i] = kept.v[--kept.n];
      continue;
    }
    i++;
  }
  for (size_t i = 0; i < kept_groups.n;) {
    if (kill(-kept_groups.v[i], 0) < 0 && errno == ESRCH) {
      kept_groups.v[i] = kept_groups.v[--kept_groups.n];
      continue;
    }
    i++;
  }
}

/* Whether process group `group` is that of a running run without a cgroup, or a kept one. */
static int group_spared(pid_t group) {
  if (!exiting)
    for (int i = 0; i < MAX_RUNS; i++)
      if (runs[i].used && !runs[i].exited && !has_cgroup(&runs[i]) && runs[i].pid == group) return 1;
  return pids_has(&kept_groups, group);
}

/*
 * Kills every orphan (a child that is not a running run's main process) that belongs to no run,
 * see the top of this file; returns how many it killed. One read of our children when there are
 * no orphans, which is the common case.
 */
static size_t kill_orphans(void) {
  static struct pids kids, spared;
  list_children(&kids);
  if (!exiting && kids.n <= (size_t)nlive) return 0; /* each is a run's main process */
  int collected = 0;
  size_t killed = 0;
  for (size_t i = 0; i < kids.n; i++) {
    pid_t pid = kids.v[i];
    if (!exiting && run_of_pid(pid) != NULL) continue;
    if (!collected) {
      collect_spared(&spared);
      collected = 1;
    }
    if (pids_has(&spared, pid)) continue;
    pid_t group = getpgid(pid);
    if (group > 0 && group_spared(group)) continue;
    if (unplaceable_kept) continue; /* it may be what such a run left (see the top of this file) */
    kill(pid, SIGKILL);
    /* A group it leads (setsid, setpgid) can only hold what it started: that goes too. */
    if (group == pid) kill(-pid, SIGKILL);
    killed++;
  }
  return killed;
}

/* Every descriptor above 2 that the engine left us without close-on-exec is closed [X-PROC-5]. */
static void close_inherited(void) {
  if (syscall(__NR_close_range, 3U, ~0U, 0U) == 0) return;
  struct pids fds = {0};
  DIR *d = opendir("/proc/self/fd");
  if (d == NULL) {
    for (int fd = 3; fd < 1024; fd++) close(fd);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    int fd = atoi(e->d_name);
    if (fd > 2 && fd != dirfd(d)) pids_add(&fds, fd);
  }
  closedir(d);
  for (size_t i = 0; i < fds.n; i++) close(fds.v[i]);
  free(fds.v);
}

/* As getdents64 returns them. */
struct raw_dirent {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

/*
 * In the child, before exec: every descriptor above 2 closes on exec [X-PROC-5] (marked, not
 * closed: the exec-error pipe must stay open until then). Only system calls (we share the
 * launcher's memory until exec): close_range (Linux >= 5.11), else /proc/self/fd, else every
 * number up to the limit.
 */
static void cloexec_above_2(void) {
  if (syscall(__NR_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    char buf[2048];
    long n;
    while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
      for (long off = 0; off < n;) {
        struct raw_dirent *e = (struct raw_dirent *)(buf + off);
        off += e->reclen;
        int fd = 0;
        for (const char *c = e->name; *c >= '0' && *c <= '9'; c++) fd = fd * 10 + (*c - '0');
        if (fd > 2 && fd != dir) fcntl(fd, F_SETFD, FD_CLOEXEC);
      }
    }
    close(dir);
    return;
  }
  struct rlimit lim;
  rlim_t top = 1 << 20;
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < top) top = lim.rlim_cur;
  for (rlim_t fd = 3; fd < top; fd++) fcntl((int)fd, F_SETFD, FD_CLOEXEC);
}

static void release_if_done(struct run *r) {
  if (r->exited && r->out < 0 && r->err < 0 && r->in < 0) {
    free(r->stdin_buf);
    free(r->payload_path);
    free(r->cgroup_procs);
    memset(r, 0, sizeof *r);
  }
}

static void remove_payload(struct run *r) {
  if (r->payload_path != NULL) {
    unlink(r->payload_path);
    free(r->payload_path);
    r->payload_path = NULL;
  }
}

/* Writes the whole payload file; 0 on success, else errno. */
static int write_payload(const char *path, const char *bytes, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return errno;
  size_t off = 0;
  while (off < len) {
    ssize_t n = write(fd, bytes + off, len - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      close(fd);
      unlink(path);
      return e;
    }
    off += (size_t)n;
  }
  close(fd);
  return 0;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* Reader over a request payload; `bad` is set on any overrun. */
struct reader {
  const char *p;
  size_t left;
  int bad;
};

static uint32_t rd_u32(struct reader *r) {
  if (r->left < 4) {
    r->bad = 1;
    return 0;
  }
  uint32_t v = get_u32(r->p);
  r->p += 4;
  r->left -= 4;
  return v;
}

/* PATH lookup in the child's own environment (as a shell would), not the launcher's (empty). */
static void exec_in_path(char **argv, char **envp) {
  const char *file = argv[0];
  if (strchr(file, '/') != NULL) {
    execve(file, argv, envp);
    return;
  }
  const char *path = "/usr/local/bin:/usr/bin:/bin";
  for (char **e = envp; *e; e++)
    if (strncmp(*e, "PATH=", 5) == 0) path = *e + 5;
  int saved = ENOENT;
  char buf[4096];
  const char *p = path;
  while (*p) {
    const char *colon = strchr(p, ':');
    size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
    if (dlen == 0) {
      snprintf(buf, sizeof buf, "%s", file);
    } else {
      snprintf(buf, sizeof buf, "%.*s/%s", (int)dlen, p, file);
    }
    execve(buf, argv, envp);
    if (errno != ENOENT && errno != ENOTDIR) saved = errno;
    if (!colon) break;
    p = colon + 1;
  }
  errno = saved;
}

static void fail_child(int errpipe, int err, const char *stage) {
  char buf[64];
  int n = snprintf(buf, sizeof buf, "%d %s", err, stage);
  if (write(errpipe, buf, (size_t)n) < 0) { /* nothing more to do */ }
  _exit(127);
}

/* What the child does before exec; in the launcher's memory, which the child shares or copies. */
struct child_plan {
  char **argv, **envp;
  const char *cwd;
  const char *join; /* a cgroup.procs to write: a run not started in its cgroup; else NULL */
  int in_fd;        /* stdin's read end; -1: /dev/null */
  int out_fd, err_fd;
  int err_pipe; /* a failure before exec is told here ("errno stage"); it closes on exec */
};

/*
 * The child, up to its exec; never returns. It shares the launcher's memory (vfork, or clone3
 * with CLONE_VM) or has a copy of it: only system calls and local buffers here. Its own group
 * (and cgroup) first, so nothing it starts can be missed.
 */
static int child_main(void *arg) {
  const struct child_plan *c = arg;
  signal(SIGCHLD, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  struct sched_param normal = {0};
  sched_setscheduler(0, SCHED_OTHER, &normal);
  if (setpgid(0, 0) < 0) fail_child(c->err_pipe, errno, "setpgid");
  if (c->join != NULL) {
    int fd = open(c->join, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "0", 1) != 1) fail_child(c->err_pipe, errno, "cgroup");
    close(fd);
  }
  if (c->in_fd >= 0) {
    if (dup2(c->in_fd, 0) < 0) fail_child(c->err_pipe, errno, "dup2");
  } else {
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || dup2(devnull, 0) < 0) fail_child(c->err_pipe, errno, "dup2");
  }
  if (dup2(c->out_fd, 1) < 0 || dup2(c->err_fd, 2) < 0) fail_child(c->err_pipe, errno, "dup2");
  if (chdir(c->cwd) < 0) fail_child(c->err_pipe, errno, "chdir");
  cloexec_above_2();
  exec_in_path(c->argv, c->envp);
  fail_child(c->err_pipe, errno, "exec");
  return 127;
}

/* HOOKWERK_NO_CLONE3_VM: build the path other architectures take (to test it here). */
#if defined(__x86_64__) && !defined(HOOKWERK_NO_CLONE3_VM)
#define HAVE_CLONE3_VM 1
/*
 * clone3 with CLONE_VM (and what `ca` adds): the child runs fn(arg) on ca's stack, then exits;
 * the parent gets the pid, or -errno. In assembly: a child on a stack of its own must not return
 * through our C frames. x86-64 only (the one we test); elsewhere the child copies our memory.
 */
static long clone3_vm(struct hw_clone_args *ca, int (*fn)(void *), void *arg) {
  long ret = __NR_clone3;
  register int (*fn_reg)(void *) __asm__("r8") = fn;
  register void *arg_reg __asm__("r9") = arg;
  __asm__ volatile("syscall\n\t"
                   "testq %%rax, %%rax\n\t"
                   "jnz 1f\n\t"
                   /* The child: on its own stack (16-byte aligned top), no frame to return to. */
                   "xorl %%ebp, %%ebp\n\t"
                   "movq %%r9, %%rdi\n\t"
                   "callq *%%r8\n\t"
                   "movl %%eax, %%edi\n\t"
                   "movl $60, %%eax\n\t" /* exit */
                   "syscall\n\t"
                   "ud2\n\t"
                   "1:\n\t"
                   : "+a"(ret)
                   : "D"(ca), "S"(sizeof *ca), "r"(fn_reg), "r"(arg_reg)
                   : "rcx", "r11", "memory", "cc");
  return ret;
}

/* The stack a CLONE_VM child runs on until its exec (one child at a time: CLONE_VFORK). */
#define CHILD_STACK (64 * 1024)
static char *child_stack;

/* Mapped on first use, with a guard page below it; whether there is one. */
static int child_stack_ready(void) {
  if (child_stack != NULL) return 1;
  long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) page = 4096;
  char *p = mmap(NULL, CHILD_STACK + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                 -1, 0);
  if (p == MAP_FAILED) return 0;
  if (mprotect(p, (size_t)page, PROT_NONE) != 0) {
    munmap(p, CHILD_STACK + (size_t)page);
    return 0;
  }
  child_stack = p + page;
  return 1;
}
#endif

/* The request's NUL-terminated strings, in place in `text` (text_len bytes). NULL if they don't fit. */
static char **split_text(char *text, size_t text_len, size_t count) {
  char **fields = calloc(count + 1, sizeof *fields);
  if (fields == NULL) die("calloc");
  char *p = text, *end = text + text_len;
  for (size_t i = 0; i < count; i++) {
    char *nul = p < end ? memchr(p, 0, (size_t)(end - p)) : NULL;
    if (nul == NULL) {
      free(fields);
      return NULL;
    }
    fields[i] = p;
    p = nul + 1;
  }
  if (p != end) {
    free(fields);
    return NULL;
  }
  return fields;
}

/* What a run's cgroup field becomes when its folder could not be made for it. */
static char no_cgroup[] = "";

static void do_spawn(struct reader *rq) {
  uint32_t id = rd_u32(rq);
  uint32_t flags = rd_u32(rq);
  uint32_t argc = rd_u32(rq);
  uint32_t envc = rd_u32(rq);
  size_t text_len = rd_u32(rq);
  size_t stdin_len = rd_u32(rq);
  size_t payload_len = rd_u32(rq);
  int has_payload = (flags & 2) != 0;
  char *text = NULL;
  char **fields = NULL;
  if (!rq->bad && argc > 0 && argc <= 65536 && envc <= 65536 && rq->left == text_len + stdin_len + payload_len &&
      ((flags & 1) || stdin_len == 0) && (has_payload || payload_len == 0)) {
    text = malloc(text_len + 1);
    if (text == NULL) die("malloc");
    memcpy(text, rq->p, text_len);
    text[text_len] = 0;
    fields = split_text(text, text_len, 2 + (size_t)argc + envc + (has_payload ? 1 : 0));
  }
  if (fields == NULL) {
    int32_t e[1] = {EINVAL};
    emit(102, id, e, 1, "request", 7, 1);
    free(text);
    return;
  }
  char *cgroup = fields[0];
  char *cwd = fields[1];
  /* argv and envp: NULL-terminated arrays into the text block (freed with it). */
  char **argv = calloc((size_t)argc + 1, sizeof *argv);
  char **envp = calloc((size_t)envc + 1, sizeof *envp);
  if (argv == NULL || envp == NULL) die("calloc");
  memcpy(argv, fields + 2, argc * sizeof *argv);
  memcpy(envp, fields + 2 + argc, envc * sizeof *envp);
  char *payload_path = has_payload ? fields[2 + argc + envc] : NULL;
  const char *bytes = rq->p + text_len;
  char *stdin_buf = NULL;
  if (flags & 1) {
    stdin_buf = malloc(stdin_len + 1);
    if (stdin_buf == NULL) die("malloc");
    memcpy(stdin_buf, bytes, stdin_len);
  }
  const char *payload = bytes + stdin_len;

  struct run *r = NULL;
  for (int i = 0; i < MAX_RUNS; i++)
    if (!runs[i].used) {
      r = &runs[i];
      break;
    }
  int in_p[2] = {-1, -1}, out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, ep[2] = {-1, -1};
  const char *stage = NULL;
  if (rq->bad) stage = "request";
  else if (r == NULL) {
    errno = EAGAIN;
    stage = "too_many_runs";
  } else if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 || pipe2(ep, O_CLOEXEC) < 0 ||
             ((flags & 1) && pipe2(in_p, O_CLOEXEC) < 0))
    stage = "pipe";
  if (stage != NULL) {
    int32_t e[1] = {rq->bad ? EINVAL : errno};
    emit(102, id, e, 1, stage, strlen(stage), 1);
    goto cleanup;
  }
  if (payload_path != NULL) {
    int perr = write_payload(payload_path, payload, payload_len);
    if (perr != 0) {
      int32_t e[1] = {perr};
      emit(102, id, e, 1, "payload_file", 12, 1);
      payload_path = NULL;
      goto cleanup;
    }
  }

  /*
   * vfork: the child borrows our memory until it execs, so starting a hook costs no page-table
   * copy (~10 % more runs per second here). We are suspended meanwhile, which costs nothing: we
   * wait for the exec anyway. Signals stay blocked until the child has reset its handlers, so
   * none of ours runs in it.
   */
  /*
   * A run with a cgroup v2 is started in it (clone3 CLONE_INTO_CGROUP, Linux >= 5.7) rather than
   * moved there: writing cgroup.procs takes the kernel's threadgroup lock for writing, which waits
   * for an RCU grace period whenever no move happened in the last one — some 10 ms per hook run
   * on a host that sits idle between tool calls. With CLONE_VM as vfork (x86-64: the child on a
   * stack of its own, see clone3_vm), else the child copies our (small) memory: a page-table copy,
   * then a fault on each page we write after (~40 us a run here); CLONE_VFORK holds us until it
   * execs either way. Any refusal falls back: CLONE_VM refused, without it; clone3 refused (an
   * older kernel, a v1 hierarchy), vfork and the write, for this run and the rest.
   */
  /*
   * The run's cgroup is made here, right before the start, for this run alone, and removed after
   * its exit [X-PROC-2]: never reused, because a cgroup that was ever cgroup.kill-ed kills every
   * process later cloned into it (6.18 here) and any hook may write that file, its own or a
   * sibling's. A folder that exists already was not made for this run (a hook can plant one, and
   * kill it, under the next name): the run then goes without a cgroup (its group still holds it).
   * Here, not in the engine: the mkdir and the rmdir (~60 us) stay off the agent's event loop.
   */
  char cgroup_dir[4096];
  if (cgroup[0] != 0 && (!dir_of(cgroup, cgroup_dir, sizeof cgroup_dir) || mkdir(cgroup_dir, 0755) != 0))
    cgroup = no_cgroup;
  static int clone3_usable = 1;
#ifdef HAVE_CLONE3_VM
  static int clone3_vm_usable = 1;
#endif
  volatile int cgroup_fd = -1;
  if (cgroup[0] != 0 && clone3_usable) cgroup_fd = open(cgroup_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  volatile int born_in_cgroup = 0;
  struct child_plan plan = {argv, envp, cwd, NULL, (flags & 1) ? in_p[0] : -1, out_p[1], err_p[1], ep[1]};
  sigset_t all_signals, saved_mask;
  sigfillset(&all_signals);
  sigprocmask(SIG_SETMASK, &all_signals, &saved_mask);
  pid_t pid = -1;
  if (cgroup_fd >= 0) {
    struct hw_clone_args ca;
    memset(&ca, 0, sizeof ca);
    ca.flags = HW_CLONE_VFORK | HW_CLONE_INTO_CGROUP;
    ca.exit_signal = SIGCHLD;
    ca.cgroup = (uint64_t)cgroup_fd;
    int vm_refused = 0;
#ifdef HAVE_CLONE3_VM
    if (clone3_vm_usable && child_stack_ready()) {
      struct hw_clone_args vm = ca;
      vm.flags |= HW_CLONE_VM;
      vm.stack = (uint64_t)(uintptr_t)child_stack;
      vm.stack_size = CHILD_STACK;
      long r = clone3_vm(&vm, child_main, &plan);
      if (r > 0) {
        pid = (pid_t)r;
        born_in_cgroup = 1;
      } else {
        vm_refused = 1;
      }
    }
#endif
    if (!born_in_cgroup) {
      pid = (pid_t)syscall(__NR_clone3, &ca, sizeof ca);
      if (pid == 0) _exit(child_main(&plan));
      /* Refused with CLONE_VM only: never asked again; refused both ways: no clone3 again. */
      if (pid > 0) {
        born_in_cgroup = 1;
#ifdef HAVE_CLONE3_VM
        if (vm_refused) clone3_vm_usable = 0;
#endif
      } else {
        clone3_usable = 0;
      }
    }
    (void)vm_refused;
  }
  if (!born_in_cgroup) {
    plan.join = cgroup[0] != 0 ? cgroup : NULL;
    pid = vfork();
    if (pid == 0) _exit(child_main(&plan));
  }
  sigprocmask(SIG_SETMASK, &saved_mask, NULL);
  if (cgroup_fd >= 0) close(cgroup_fd);
  if (pid < 0) {
    int32_t e[1] = {errno};
    emit(102, id, e, 1, "fork", 4, 1);
    if (payload_path != NULL) unlink(payload_path);
    if (cgroup[0] != 0) rmdir(cgroup_dir);
    goto cleanup;
  }

  close(ep[1]);
  ep[1] = -1;
  close(out_p[1]);
  close(err_p[1]);
  if (in_p[0] >= 0) close(in_p[0]);
  /* The exec pipe closes on exec (CLOEXEC): no bytes means the program is running. */
  char ebuf[64];
  ssize_t n;
  do n = read(ep[0], ebuf, sizeof ebuf - 1);
  while (n < 0 && errno == EINTR);
  close(ep[0]);
  ep[0] = -1;
  if (n > 0) {
    ebuf[n] = 0;
    int err = atoi(ebuf);
    const char *st = strchr(ebuf, ' ');
    st = st ? st + 1 : "exec";
    waitpid(pid, NULL, 0);
    if (payload_path != NULL) unlink(payload_path);
    if (cgroup[0] != 0) rmdir(cgroup_dir);
    int32_t e[1] = {err};
    emit(102, id, e, 1, st, strlen(st), 1);
    close(out_p[0]);
    close(err_p[0]);
    if (in_p[1] >= 0) close(in_p[1]);
    goto cleanup_strings;
  }
  memset(r, 0, sizeof *r);
  r->used = 1;
  r->id = id;
  r->pid = pid;
  r->out = out_p[0];
  r->err = err_p[0];
  r->in = in_p[1];
  r->payload_path = payload_path != NULL ? strdup(payload_path) : NULL;
  r->cgroup_procs = strdup(cgroup);
  if (r->cgroup_procs == NULL || (payload_path != NULL && r->payload_path == NULL)) die("strdup");
  r->keep = (flags & 4) != 0;
  if (r->keep && !has_cgroup(r)) unplaceable_kept = 1;
  nlive++;
  if (has_cgroup(r) && !r->keep) note_used(r->cgroup_procs);
  set_nonblock(r->out);
  set_nonblock(r->err);
  if (r->in >= 0) {
    set_nonblock(r->in);
    r->stdin_buf = stdin_buf;
    r->stdin_len = stdin_len;
    stdin_buf = NULL;
  }
  int32_t p[1] = {pid};
  emit_frame(101, id, p, 1, NULL, 0, 0, holds(r));
  goto cleanup_strings;

cleanup:
  for (int i = 0; i < 2; i++) {
    if (in_p[i] >= 0) close(in_p[i]);
    if (out_p[i] >= 0) close(out_p[i]);
    if (err_p[i] >= 0) close(err_p[i]);
    if (ep[i] >= 0) close(ep[i]);
  }
cleanup_strings:
  free(argv);
  free(envp);
  free(fields);
  free(text);
  free(stdin_buf);
}

static void pump_output(struct run *r, int *fd, uint8_t type, uint8_t stream);

static void mark_exited(struct run *r, int status) {
  r->exited = 1;
  r->status = status;
  r->report = 1;
  nlive--;
  remove_payload(r);
  if (r->keep) remember_kept(r);
}

/* Reaps every child that exited (a run's main process, or an orphan); whether any did. */
static int reap_all(void) {
  int any = 0;
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return any;
    any = 1;
    struct run *r = run_of_pid(pid);
    if (r != NULL) mark_exited(r, status);
  }
}

static void reap(void) {
  if (!reap_all()) return;
  /* A run ended, or an orphan did (its children are ours now): what belongs to no run goes. */
  kill_orphans();
  for (int i = 0; i < MAX_RUNS; i++) {
    struct run *r = &runs[i];
    if (!r->used || !r->report) continue;
    r->report = 0;
    /*
     * What it wrote is in the pipes, and their ends came with its exit (unless it left processes
     * holding them): read them now, so that output and EOF leave with the EXIT in one write.
     */
    if (r->out >= 0) pump_output(r, &r->out, 103, 1);
    if (r->err >= 0) pump_output(r, &r->err, 104, 2);
    int32_t v[3];
    if (WIFSIGNALED(r->status)) {
      v[0] = -1;
      v[1] = WTERMSIG(r->status);
    } else {
      v[0] = WEXITSTATUS(r->status);
      v[1] = 0;
    }
    /* Cheap here, a file read on the engine's event loop: is anything of the run left? */
    v[2] = kill(-r->pid, 0) == 0 || cgroup_populated(r->cgroup_procs) ? 1 : 0;
    /*
     * Nothing left: its cgroup goes, never to be used again [X-PROC-2], once this EXIT has left
     * (see doom). The engine counts on it (left 0, a run that does not keep its children), and
     * touches it no more.
     */
    char dir[4096];
    if (!v[2] && !r->keep && has_cgroup(r) && dir_of(r->cgroup_procs, dir, sizeof dir)) doom(dir);
    emit(105, r->id, v, 3, NULL, 0, 0);
    release_if_done(r);
  }
}

/* Forwards what a child wrote; EOF (or detach) closes our end and says so once. */
static void pump_output(struct run *r, int *fd, uint8_t type, uint8_t stream) {
  char buf[CHUNK];
  for (;;) {
    ssize_t n = read(*fd, buf, sizeof buf);
    if (n > 0) {
      emit_frame(type, r->id, NULL, 0, buf, (size_t)n, 0, holds(r));
      if ((size_t)n < sizeof buf) return;
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    close_fd(fd);
    char s = (char)stream;
    emit_frame(106, r->id, NULL, 0, &s, 1, 0, holds(r));
    return;
  }
}

static void pump_stdin(struct run *r) {
  while (r->stdin_off < r->stdin_len) {
    ssize_t n = write(r->in, r->stdin_buf + r->stdin_off, r->stdin_len - r->stdin_off);
    if (n > 0) {
      r->stdin_off += (size_t)n;
      continue;
    }
    if (n < 0 && errno == EAGAIN) return;
    break; /* EPIPE: the hook does not read its input; that is its business */
  }
  close_fd(&r->in);
  free(r->stdin_buf);
  r->stdin_buf = NULL;
}

/* How long the launcher, going away, goes on killing orphans (and what they leave us). */
#define EXIT_SWEEP_MS 500

/*
 * The engine is gone (or closes us): every running run's process group, every cgroup a run that
 * does not keep its children used, and those of running runs that do, are killed; then every
 * orphan that a kept run does not own, again for what each leaves us, until none is left or
 * EXIT_SWEEP_MS have passed [X-PROC-5].
 */
static void kill_all_and_exit(void) {
  exiting = 1;
  char dir[4096];
  for (int i = 0; i < MAX_RUNS; i++) {
    struct run *r = &runs[i];
    if (!r->used) continue;
    if (r->exited) continue;
    kill(-r->pid, SIGKILL);
    if (has_cgroup(r) && r->keep && dir_of(r->cgroup_procs, dir, sizeof dir)) kill_cgroup(dir);
  }
  for (size_t i = 0; i < used.n; i++) kill_cgroup(used.v[i]);
  /*
   * Each turn reaps what died (an orphan's children are then ours) and kills every child that is
   * not spared, run main processes and zombies included: none left means all of them are gone.
   */
  int64_t deadline = now_ms() + EXIT_SWEEP_MS;
  for (;;) {
    reap_all();
    if (kill_orphans() == 0 || now_ms() >= deadline) break;
    poll(NULL, 0, 1);
  }
  for (int i = 0; i < MAX_RUNS; i++)
    if (runs[i].used) remove_payload(&runs[i]);
  /* What was killed above has left its cgroup: every doomed one goes now [X-PROC-2]. */
  for (size_t i = 0; i < doomed.n; i++) remove_run_cgroup(doomed.v[i]);
  exit(0);
}

int main(int argc, char **argv) {
  /* What the engine left open without close-on-exec is not ours to hold, nor to pass on. */
  close_inherited();
  if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) < 0) die("pipe");
  /* Caught, not fatal: the loop kills every run before it exits. No SA_RESTART: a blocked write
     must return to notice it. */
  struct sigaction term;
  memset(&term, 0, sizeof term);
  term.sa_handler = on_term;
  sigaction(SIGTERM, &term, NULL);
  /* Dies with the engine, even one killed by SIGKILL; and then its hooks die with it. */
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  pid_t engine = argc > 1 ? (pid_t)atoi(argv[1]) : 0;
  if (engine > 0 ? getppid() != engine : getppid() == 1) return 0;
  /* Every orphan of a hook becomes ours: none gets away by leaving its group or its cgroup. */
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  char children[64];
  snprintf(children, sizeof children, "/proc/self/task/%d/children", (int)getpid());
  children_fd = open(children, O_RDONLY | O_CLOEXEC);
  set_batch(1); /* see set_batch() */
  signal(SIGPIPE, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  /* The engine's terminal is not ours: we follow the engine (stdin, PR_SET_PDEATHSIG). */
  signal(SIGHUP, SIG_IGN);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigchld;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, NULL);

  outcap = 2 * OUT_FLUSH;
  outbuf = malloc(outcap);
  if (outbuf == NULL) die("malloc");
  char *inbuf = malloc(CHUNK);
  size_t incap = CHUNK, inlen = 0;
  if (inbuf == NULL) die("malloc");
  struct pollfd *pfds = calloc(2 + 3 * MAX_RUNS, sizeof *pfds);
  struct {
    struct run *r;
    int which;
  } *owners = calloc(2 + 3 * MAX_RUNS, sizeof *owners);
  if (pfds == NULL || owners == NULL) die("calloc");

  for (;;) {
    if (term_requested) kill_all_and_exit();
    if (urgent || (outlen > 0 && hold_timeout() == 0)) flush_out();
    int n = 0;
    pfds[n].fd = STDIN_FILENO;
    pfds[n].events = POLLIN;
    n++;
    pfds[n].fd = sigchld_pipe[0];
    pfds[n].events = POLLIN;
    n++;
    for (int i = 0; i < MAX_RUNS; i++) {
      struct run *r = &runs[i];
      if (!r->used) continue;
      if (r->out >= 0) {
        pfds[n].fd = r->out;
        pfds[n].events = POLLIN;
        owners[n].r = r;
        owners[n].which = 1;
        n++;
      }
      if (r->err >= 0) {
        pfds[n].fd = r->err;
        pfds[n].events = POLLIN;
        owners[n].r = r;
        owners[n].which = 2;
        n++;
      }
      if (r->in >= 0) {
        pfds[n].fd = r->in;
        pfds[n].events = POLLOUT;
        owners[n].r = r;
        owners[n].which = 0;
        n++;
      }
    }
    set_batch(1);
    /* A doomed cgroup waiting: only look (timeout 0), and remove it if nothing is there. */
    int idle_work = doomed_waiting();
    int ready = poll(pfds, (nfds_t)n, idle_work ? 0 : hold_timeout());
    if (ready < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    if (ready == 0 && idle_work) {
      remove_doomed_one();
      continue;
    }
    /* Something happened: a busy doomed cgroup may be free now. */
    if (ready > 0) doomed_tried = 0;
    if (pfds[1].revents) {
      char drain[64];
      while (read(sigchld_pipe[0], drain, sizeof drain) > 0) {
      }
      reap();
    }
    for (int i = 2; i < n; i++) {
      if (!pfds[i].revents) continue;
      struct run *r = owners[i].r;
      if (!r->used) continue;
      if (owners[i].which == 1 && r->out >= 0) pump_output(r, &r->out, 103, 1);
      else if (owners[i].which == 2 && r->err >= 0) pump_output(r, &r->err, 104, 2);
      else if (owners[i].which == 0 && r->in >= 0) pump_stdin(r);
      release_if_done(r);
    }
    if (pfds[0].revents) {
      if (inlen == incap) {
        incap *= 2;
        inbuf = realloc(inbuf, incap);
        if (inbuf == NULL) die("realloc");
      }
      ssize_t got = read(STDIN_FILENO, inbuf + inlen, incap - inlen);
      if (got == 0) kill_all_and_exit();
      if (got < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        kill_all_and_exit();
      }
      inlen += (size_t)got;
      size_t off = 0;
      while (inlen - off >= 4) {
        uint32_t len = get_u32(inbuf + off);
        if (len == 0 || len > MAX_FRAME) kill_all_and_exit();
        if (inlen - off - 4 < len) {
          if (incap < (size_t)len + 4) {
            memmove(inbuf, inbuf + off, inlen - off);
            inlen -= off;
            off = 0;
            incap = (size_t)len + 4;
            inbuf = realloc(inbuf, incap);
            if (inbuf == NULL) die("realloc");
          }
          break;
        }
        uint8_t type = (uint8_t)inbuf[off + 4];
        struct reader rq = {inbuf + off + 5, len - 1, 0};
        if (type == 1) {
          set_batch(0);
          /* New requests never run while a SIGCHLD is pending unreaped: reap first. */
          reap();
          do_spawn(&rq);
        } else if (type == 3) {
          uint32_t id = rd_u32(&rq);
          int32_t sig = (int32_t)rd_u32(&rq);
          struct run *r = find_run(id);
          if (!rq.bad && r != NULL && !r->exited) kill(-r->pid, sig);
        } else if (type == 2) {
          uint32_t id = rd_u32(&rq);
          struct run *r = find_run(id);
          if (r != NULL) {
            close_fd(&r->out);
            close_fd(&r->err);
            release_if_done(r);
          }
        }
        off += 4 + len;
      }
      if (off > 0) {
        memmove(inbuf, inbuf + off, inlen - off);
        inlen -= off;
      }
    }
  }
}
