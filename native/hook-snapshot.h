/*
 * [G-PERF-1][R-HOOK-4] The C client's cold fallback from a V8 startup snapshot: instead of
 * `node <package>/bin/hookwerk.js hook <args>` (node, then the hook entry, then the cold bundle and
 * its engine evaluated and compiled anew), `node --snapshot-blob <blob> hook <args>`, which starts
 * with the engine already loaded and a decide already run. The blob and its stamp are made by
 * src/hook/snapshot-blob.ts in `<home>/.hookwerk/cache/`; this file only decides whether to trust
 * them and runs node with it:
 *
 *   - the folder `<home>/.hookwerk/cache` is a real folder of this account, mode 0700, inside a
 *     `<home>/.hookwerk` of this account that no one else may write;
 *   - the stamp `hook-snapshot.stamp` there is a regular file of this account, 0600, saying `ok`;
 *   - its node line names this client's node (HOOKWERK_NODE, resolved) with the same device,
 *     inode, size and mtime; its bundle line this installation's dist/cli/hook-snapshot.cjs, the
 *     same way; its blob line a regular file of this account, 0600, directly in that folder,
 *     unchanged since it was made.
 *
 * A blob is code and only fits the node that made it (a wrong or damaged one crashes node: exit
 * 14, or SIGSEGV/SIGABRT/SIGTRAP). So node runs as a child with its stdout and stderr kept in temp
 * files: an exit of its own (the hook's code) is the answer, copied out; exit 14, exec failure
 * (127) or death by a signal is no answer — the stamp is removed (the next fallback through
 * bin/hookwerk.js builds a new blob in the background) and the call goes on as the usual
 * fallback, with the same stdin. A blob also holds V8's flags: node refuses it under others, so
 * a call whose NODE_OPTIONS is set does not try it. `HOOKWERK_SNAPSHOT=off` turns the whole path off.
 */
#ifndef HOOKWERK_HOOK_SNAPSHOT_H
#define HOOKWERK_HOOK_SNAPSHOT_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define SNAPSHOT_STAMP_MAX 16384
#define SNAPSHOT_STAMP_OK "hookwerk-snapshot 1 ok"
/* node's exit code when it cannot use a snapshot blob (missing, another version's). */
#define SNAPSHOT_NODE_REFUSED 14

/* `path` is a folder (not a link) of `uid` that no one else may write; `private_only`: nor read. */
static int snapshot_dir_ok(const char *path, uid_t uid, int private_only) {
  struct stat st;
  if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != uid) return 0;
  return (st.st_mode & (private_only ? 077 : 022)) == 0;
}

/*
 * One stamp line, `KIND dev ino size mtime-s mtime-ns<TAB>path`, against a stat of its path
 * (`follow`: stat, else lstat); `want`, when given, is the path the line must name.
 */
static int snapshot_line_matches(const char *line, const char *kind, const char *want, int follow,
                                 struct stat *out) {
  size_t kind_len = strlen(kind);
  if (strncmp(line, kind, kind_len) != 0 || line[kind_len] != ' ') return 0;
  const char *tab = strchr(line, '\t');
  if (tab == NULL) return 0;
  unsigned long long dev, ino, size, sec, nsec;
  if (sscanf(line + kind_len, " %llu %llu %llu %llu %llu", &dev, &ino, &size, &sec, &nsec) != 5) return 0;
  const char *path = tab + 1;
  if (path[0] != '/' || (want != NULL && strcmp(path, want) != 0)) return 0;
  struct stat st;
  if ((follow ? stat(path, &st) : lstat(path, &st)) != 0) return 0;
  if ((unsigned long long)st.st_dev != dev || (unsigned long long)st.st_ino != ino ||
      (unsigned long long)st.st_size != size || (unsigned long long)st.st_mtim.tv_sec != sec ||
      (unsigned long long)st.st_mtim.tv_nsec != nsec)
    return 0;
  if (out != NULL) *out = st;
  return 1;
}

/*
 * Reads up to `size` bytes of `fd` into a new NUL-terminated buffer (the count read in `*len`),
 * then closes `fd`. NULL: out of memory. Shared by the snapshot's stamp and the C client's project
 * file check (hookwerk-hook.c).
 */
static inline char *read_fd_text(int fd, size_t size, size_t *len) {
  char *text = malloc(size + 1);
  *len = 0;
  while (text != NULL && *len < size) {
    ssize_t n = read(fd, text + *len, size - *len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    *len += (size_t)n;
  }
  close(fd);
  if (text != NULL) text[*len] = '\0';
  return text;
}

/* Reads the stamp whole (a regular 0600 file of `uid`, not a link); NULL when it is not one. */
static char *snapshot_read_stamp(const char *stamp, uid_t uid) {
  int fd = open(stamp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != uid || (st.st_mode & 077) != 0 ||
      st.st_size <= 0 || st.st_size >= SNAPSHOT_STAMP_MAX) {
    close(fd);
    return NULL;
  }
  size_t len = 0;
  char *text = read_fd_text(fd, (size_t)st.st_size, &len);
  if (text == NULL || len != (size_t)st.st_size) {
    free(text);
    return NULL;
  }
  return text;
}

/*
 * The blob to start `node` with for the package whose CLI is `cli`, in `home`'s cache; 0 with
 * its path in `blob` (and the stamp's path in `stamp`), -1 when there is none to trust.
 */
static int snapshot_find(const char *home, const char *node, const char *cli, char *blob, size_t blob_size,
                         char *stamp, size_t stamp_size) {
  uid_t uid = geteuid();
  char own[PATH_MAX], dir[PATH_MAX], node_real[PATH_MAX], cli_real[PATH_MAX], bundle[PATH_MAX],
      bundle_real[PATH_MAX];
  if (snprintf(own, sizeof own, "%s/.hookwerk", home) >= (int)sizeof own) return -1;
  if (snprintf(dir, sizeof dir, "%s/cache", own) >= (int)sizeof dir) return -1;
  if (!snapshot_dir_ok(own, uid, 0) || !snapshot_dir_ok(dir, uid, 1)) return -1;
  if (snprintf(stamp, stamp_size, "%s/hook-snapshot.stamp", dir) >= (int)stamp_size) return -1;
  if (node[0] != '/' || realpath(node, node_real) == NULL || realpath(cli, cli_real) == NULL) return -1;
  /* <package>/bin/hookwerk.js → <package>/dist/cli/hook-snapshot.cjs */
  const char *suffix = "/bin/hookwerk.js";
  size_t cli_len = strlen(cli_real), suffix_len = strlen(suffix);
  if (cli_len <= suffix_len || strcmp(cli_real + cli_len - suffix_len, suffix) != 0) return -1;
  if (snprintf(bundle, sizeof bundle, "%.*s/dist/cli/hook-snapshot.cjs", (int)(cli_len - suffix_len), cli_real) >=
      (int)sizeof bundle)
    return -1;
  if (realpath(bundle, bundle_real) == NULL) return -1;
  char *text = snapshot_read_stamp(stamp, uid);
  if (text == NULL) return -1;
  int found = -1;
  char *lines[4] = {NULL, NULL, NULL, NULL};
  char *at = text;
  for (int i = 0; i < 4 && at != NULL && *at != '\0'; i++) {
    lines[i] = at;
    char *nl = strchr(at, '\n');
    if (nl != NULL) *nl = '\0';
    at = nl != NULL ? nl + 1 : NULL;
  }
  struct stat blob_st;
  if (lines[3] != NULL && strcmp(lines[0], SNAPSHOT_STAMP_OK) == 0 &&
      snapshot_line_matches(lines[1], "node", node_real, 1, NULL) &&
      snapshot_line_matches(lines[2], "bundle", bundle_real, 1, NULL) &&
      snapshot_line_matches(lines[3], "blob", NULL, 0, &blob_st) && S_ISREG(blob_st.st_mode) &&
      blob_st.st_uid == uid && (blob_st.st_mode & 077) == 0) {
    const char *path = strchr(lines[3], '\t') + 1;
    const char *slash = strrchr(path, '/');
    /* Directly in the cache folder: the folder checked above is the one that holds it. */
    if (slash != NULL && (size_t)(slash - path) == strlen(dir) && strncmp(path, dir, strlen(dir)) == 0 &&
        strlen(path) < blob_size) {
      strcpy(blob, path);
      found = 0;
    }
  }
  free(text);
  return found;
}

static volatile pid_t snapshot_child = 0;

/* The agent's signal to this client is also node's: the client dies of it after passing it on. */
static void snapshot_pass_signal(int sig) {
  if (snapshot_child > 0) kill(snapshot_child, sig);
  signal(sig, SIG_DFL);
  raise(sig);
}

static int snapshot_copy(int from, int to) {
  char chunk[65536];
  if (lseek(from, 0, SEEK_SET) != 0) return -1;
  for (;;) {
    ssize_t n = read(from, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) return 0;
    for (ssize_t done = 0; done < n;) {
      ssize_t w = write(to, chunk + done, (size_t)(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return -1;
      done += w;
    }
  }
}

/*
 * Runs `node --snapshot-blob BLOB hook ARGS…` with this process's stdin; 1 with `*code` when it
 * answered (its output copied out), 0 when it did not start (nothing was written).
 */
static int snapshot_run(const char *node, const char *blob, int argc, char **argv, int *code) {
  FILE *out = tmpfile(), *err = tmpfile();
  char **args = calloc((size_t)argc + 4, sizeof *args);
  if (out == NULL || err == NULL || args == NULL) {
    if (out != NULL) fclose(out);
    if (err != NULL) fclose(err);
    free(args);
    return 0;
  }
  args[0] = (char *)node;
  args[1] = "--snapshot-blob";
  args[2] = (char *)blob;
  args[3] = "hook";
  for (int i = 1; i < argc; i++) args[i + 3] = argv[i];
  pid_t pid = fork();
  if (pid == 0) {
    if (dup2(fileno(out), 1) < 0 || dup2(fileno(err), 2) < 0) _exit(127);
    execv(node, args);
    _exit(127);
  }
  free(args);
  int answered = 0;
  if (pid > 0) {
    snapshot_child = pid;
    signal(SIGTERM, snapshot_pass_signal);
    signal(SIGINT, snapshot_pass_signal);
    signal(SIGHUP, snapshot_pass_signal);
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    snapshot_child = 0;
    if (got == pid && WIFEXITED(status) && WEXITSTATUS(status) != SNAPSHOT_NODE_REFUSED &&
        WEXITSTATUS(status) != 127) {
      /* As `hookwerk hook` prints it: stderr, then stdout. */
      (void)snapshot_copy(fileno(err), 2);
      (void)snapshot_copy(fileno(out), 1);
      *code = WEXITSTATUS(status);
      answered = 1;
    }
  }
  fclose(out);
  fclose(err);
  return answered;
}

/*
 * The call decided from the snapshot when there is one to trust: 1 with `*code`; 0 when the usual
 * fallback must run (stdin is then where it was: at its start).
 */
static int snapshot_fallback(const char *home, const char *node, const char *cli, int argc, char **argv,
                             int *code) {
  const char *off = getenv("HOOKWERK_SNAPSHOT");
  if (home == NULL || cli == NULL || (off != NULL && strcasecmp(off, "off") == 0)) return 0;
  /* V8 flags other than the build's make node refuse the blob (exit 14): NODE_OPTIONS may hold some. */
  const char *node_options = getenv("NODE_OPTIONS");
  if (node_options != NULL && node_options[0] != '\0') return 0;
  char blob[PATH_MAX], stamp[PATH_MAX];
  if (snapshot_find(home, node, cli, blob, sizeof blob, stamp, sizeof stamp) != 0) return 0;
  if (snapshot_run(node, blob, argc, argv, code)) return 1;
  /* It did not start: not again until a new blob is made (the fallback below starts that). */
  (void)unlink(stamp);
  (void)lseek(0, 0, SEEK_SET);
  return 0;
}

#endif
