/*
 * hookwerk-launcher: starts hook processes for the engine, so that the agent's own (large)
 * process never forks [X-PROC-1]. A small, long-lived process: the engine writes spawn requests
 * to its stdin and reads events from its stdout, both as length-prefixed frames.
 *
 * Frame: u32 length (little endian, of what follows), u8 type, payload.
 * Strings are u32 length + bytes.
 *
 * Requests:
 *   1 SPAWN  u32 id, u32 flags (1: stdin bytes follow, 2: a payload file follows), u32 argc,
 *            u32 envc, u32 text_len, u32 stdin_len, u32 payload_len, then text_len bytes of
 *            NUL-terminated strings: cgroup_procs (may be empty), cwd, argc * argv, envc * env
 *            ("NAME=value"), [payload_path]; then stdin_len bytes of stdin, payload_len bytes of
 *            payload file content. One text block: the engine writes it with one call, not one
 *            per string. A string holding a NUL breaks the count, and the run fails ("request").
 *            The payload file is created (0600, never over an existing file) before the fork and
 *            removed once the process has exited [P-PAY-2].
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
 * The child joins its process group (and cgroup, when one is given) before exec, so nothing it
 * starts can be missed. When the engine goes away (stdin closes, or the parent dies), every
 * process group still running is killed and the launcher exits.
 */
#define _GNU_SOURCE
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
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
};

static struct run runs[MAX_RUNS];
static int sigchld_pipe[2];

static void die(const char *what) {
  fprintf(stderr, "hookwerk-launcher: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        struct pollfd w = {fd, POLLOUT, 0};
        poll(&w, 1, -1);
        continue;
      }
      exit(0); /* the engine is gone */
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

/* A run with a cgroup can be killed without its pid: its STARTED, output and EOF may wait. */
static int holds(const struct run *r) {
  return r->cgroup_procs != NULL && r->cgroup_procs[0] != 0;
}

static void on_sigchld(int sig) {
  (void)sig;
  int saved = errno;
  char c = 0;
  if (write(sigchld_pipe[1], &c, 1) < 0) { /* the loop reaps anyway */ }
  errno = saved;
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
  sigset_t all_signals, saved_mask;
  sigfillset(&all_signals);
  sigprocmask(SIG_SETMASK, &all_signals, &saved_mask);
  pid_t pid = vfork();
  if (pid != 0) sigprocmask(SIG_SETMASK, &saved_mask, NULL);
  if (pid < 0) {
    int32_t e[1] = {errno};
    emit(102, id, e, 1, "fork", 4, 1);
    if (payload_path != NULL) unlink(payload_path);
    goto cleanup;
  }
  if (pid == 0) {
    /*
     * The child (sharing our memory until exec: only system calls and local buffers here). Its
     * own group (and cgroup) first, so nothing it starts can be missed.
     */
    signal(SIGCHLD, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct sched_param normal = {0};
    sched_setscheduler(0, SCHED_OTHER, &normal);
    if (setpgid(0, 0) < 0) fail_child(ep[1], errno, "setpgid");
    if (cgroup[0] != 0) {
      int fd = open(cgroup, O_WRONLY | O_CLOEXEC);
      if (fd < 0 || write(fd, "0", 1) != 1) fail_child(ep[1], errno, "cgroup");
      close(fd);
    }
    int devnull = -1;
    if (flags & 1) {
      if (dup2(in_p[0], 0) < 0) fail_child(ep[1], errno, "dup2");
    } else {
      devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (devnull < 0 || dup2(devnull, 0) < 0) fail_child(ep[1], errno, "dup2");
    }
    if (dup2(out_p[1], 1) < 0 || dup2(err_p[1], 2) < 0) fail_child(ep[1], errno, "dup2");
    if (chdir(cwd) < 0) fail_child(ep[1], errno, "chdir");
    exec_in_path(argv, envp);
    fail_child(ep[1], errno, "exec");
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

static void reap(void) {
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    for (int i = 0; i < MAX_RUNS; i++) {
      struct run *r = &runs[i];
      if (!r->used || r->pid != pid || r->exited) continue;
      r->exited = 1;
      remove_payload(r);
      /*
       * What it wrote is in the pipes, and their ends came with its exit (unless it left processes
       * holding them): read them now, so that output and EOF leave with the EXIT in one write.
       */
      if (r->out >= 0) pump_output(r, &r->out, 103, 1);
      if (r->err >= 0) pump_output(r, &r->err, 104, 2);
      int32_t v[3];
      if (WIFSIGNALED(status)) {
        v[0] = -1;
        v[1] = WTERMSIG(status);
      } else {
        v[0] = WEXITSTATUS(status);
        v[1] = 0;
      }
      /* Cheap here, a file read on the engine's event loop: is anything of the run left? */
      v[2] = kill(-pid, 0) == 0 || cgroup_populated(r->cgroup_procs) ? 1 : 0;
      emit(105, r->id, v, 3, NULL, 0, 0);
      release_if_done(r);
      break;
    }
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

static void kill_all_and_exit(void) {
  for (int i = 0; i < MAX_RUNS; i++) {
    if (runs[i].used && !runs[i].exited) kill(-runs[i].pid, SIGKILL);
    if (runs[i].used) remove_payload(&runs[i]);
  }
  exit(0);
}

static void on_term(int sig) {
  (void)sig;
  for (int i = 0; i < MAX_RUNS; i++)
    if (runs[i].used && !runs[i].exited) kill(-runs[i].pid, SIGKILL);
  _exit(0);
}

int main(void) {
  /* Dies with the engine; and then its hooks die with it. */
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() == 1) return 0;
  set_batch(1); /* see set_batch() */
  signal(SIGPIPE, SIG_IGN);
  signal(SIGTERM, on_term);
  signal(SIGINT, SIG_IGN);
  if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) < 0) die("pipe");
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
    int ready = poll(pfds, (nfds_t)n, hold_timeout());
    if (ready < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
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
