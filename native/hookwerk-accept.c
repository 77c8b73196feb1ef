/*
 * hookwerk-accept: the system daemon's door [T-MGD-3]. Node has no API for a Unix socket's peer
 * credentials, so `hookwerk daemon --system` (root) starts this program, which
 *
 *   hookwerk-accept SOCKET UID GID
 *
 * binds SOCKET as root (mode 0666, owned by UID:GID; a stale socket there, nothing listening, is
 * replaced; anything else is refused), drops to UID/GID (no supplementary groups) and checks it
 * cannot get root back, and only then listens — so the kernel's peer credentials a client reads
 * name UID, not root. For each accepted connection it reads SO_PEERCRED (the caller's uid, gid,
 * pid, as the kernel has them) and hands the connected descriptor to the Node daemon over Node's
 * own IPC channel (NODE_CHANNEL_FD): one sendmsg with SCM_RIGHTS carrying the line
 *
 *   {"cmd":"NODE_HANDLE","type":"net.Socket","msg":{"hookwerkPeer":{"uid":U,"gid":G,"pid":P}},"key":null}
 *
 * which Node's ChildProcess emits as 'message' (msg, socket). What Node sends back on the channel
 * (NODE_HANDLE_ACK lines) is read and dropped; when the channel closes (the daemon is gone) this
 * program exits, and the socket stops answering. Bounded: the channel is non-blocking, and a
 * connection that cannot be handed at once (the channel is full) is closed and counted — its
 * client decides on the user's path. First message on the channel: {"hookwerkAccept":"ready"}.
 * Exit 1 with one line on stderr when it cannot start. Linux (SO_PEERCRED) only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

/* The listen backlog: connections the kernel keeps waiting while this program hands others over. */
#define BACKLOG 128

static void fail(const char *what) {
  fprintf(stderr, "hookwerk-accept: %s%s%s\n", what, errno != 0 ? ": " : "", errno != 0 ? strerror(errno) : "");
  exit(1);
}

static int parse_id(const char *text, unsigned long *out) {
  char *end = NULL;
  errno = 0;
  unsigned long value = strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value > 0xfffffffful) return -1;
  *out = value;
  return 0;
}

/* Whether something answers on `path` (a live daemon: never replaced). */
static int answers(const struct sockaddr_un *addr) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  int live = connect(fd, (const struct sockaddr *)addr, sizeof *addr) == 0;
  close(fd);
  return live;
}

/* Binds `path` as root: a stale socket is replaced, a live one or any other file refused. */
static int bind_socket(const char *path, uid_t uid, gid_t gid) {
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof addr.sun_path) {
    errno = 0;
    fail("the socket path is too long");
  }
  strcpy(addr.sun_path, path);
  struct stat st;
  if (lstat(path, &st) == 0) {
    errno = 0;
    if (!S_ISSOCK(st.st_mode)) fail("the socket path exists and is not a socket");
    if (answers(&addr)) fail("a daemon is already running on the socket");
    if (unlink(path) != 0) fail("cannot remove the stale socket");
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("socket");
  /* Made 0600 by the umask, then opened to every account once it belongs to the daemon's. */
  mode_t old = umask(0177);
  int bound = bind(fd, (const struct sockaddr *)&addr, sizeof addr);
  umask(old);
  if (bound != 0) fail("cannot bind the socket");
  if (lchown(path, uid, gid) != 0) fail("cannot give the socket to the daemon's account");
  if (chmod(path, 0666) != 0) fail("cannot open the socket to every account");
  return fd;
}

/* Drops to uid/gid for good, and checks root cannot be had back. */
static void drop_to(uid_t uid, gid_t gid) {
  if (setgroups(0, NULL) != 0) fail("setgroups");
  if (setgid(gid) != 0) fail("setgid");
  if (setuid(uid) != 0) fail("setuid");
  errno = 0;
  if (uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) fail("root could be regained after dropping");
  if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid) fail("the drop did not hold");
}

/* Hands `conn` over the channel in one sendmsg: 0 sent, -1 the channel is full or gone. */
static int hand_over(int channel, int conn, unsigned uid, unsigned gid, long pid) {
  char line[256];
  int len = snprintf(line, sizeof line,
                     "{\"cmd\":\"NODE_HANDLE\",\"type\":\"net.Socket\",\"msg\":{\"hookwerkPeer\":"
                     "{\"uid\":%u,\"gid\":%u,\"pid\":%ld}},\"key\":null}\n",
                     uid, gid, pid);
  struct iovec iov = {.iov_base = line, .iov_len = (size_t)len};
  union {
    struct cmsghdr align;
    char buf[CMSG_SPACE(sizeof(int))];
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf};
  struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(cmsg), &conn, sizeof(int));
  ssize_t sent;
  do sent = sendmsg(channel, &msg, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  if (sent < 0) return -1;
  /* A short write of a line this small does not happen on a Unix stream; finish it if it does
     (the descriptor went with the first byte), so the channel's framing holds. */
  for (size_t at = (size_t)sent; at < (size_t)len;) {
    struct pollfd p = {.fd = channel, .events = POLLOUT};
    if (poll(&p, 1, 1000) <= 0) return -1;
    ssize_t n = send(channel, line + at, (size_t)len - at, MSG_NOSIGNAL);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return -1;
    at += (size_t)n;
  }
  return 0;
}

static int send_line(int channel, const char *line) {
  size_t len = strlen(line);
  for (size_t at = 0; at < len;) {
    ssize_t n = send(channel, line + at, len - at, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      struct pollfd p = {.fd = channel, .events = POLLOUT};
      if (poll(&p, 1, 1000) <= 0) return -1;
      continue;
    }
    if (n <= 0) return -1;
    at += (size_t)n;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fputs("usage: hookwerk-accept SOCKET UID GID (Node's IPC channel on NODE_CHANNEL_FD)\n", stderr);
    return 64;
  }
  unsigned long uid, gid, channel_fd = 3;
  if (parse_id(argv[2], &uid) != 0 || parse_id(argv[3], &gid) != 0) {
    fputs("hookwerk-accept: UID and GID must be numbers\n", stderr);
    return 64;
  }
  const char *given = getenv("NODE_CHANNEL_FD");
  if (given != NULL && parse_id(given, &channel_fd) != 0) {
    fputs("hookwerk-accept: NODE_CHANNEL_FD is not a descriptor\n", stderr);
    return 64;
  }
  int channel = (int)channel_fd;
  if (fcntl(channel, F_GETFD) < 0) fail("no IPC channel (start it with an 'ipc' stdio)");
  signal(SIGPIPE, SIG_IGN);
  int listener = bind_socket(argv[1], (uid_t)uid, (gid_t)gid);
  drop_to((uid_t)uid, (gid_t)gid);
  /* After the drop: the peer credentials a client reads are those of the listening process. */
  if (listen(listener, BACKLOG) != 0) fail("listen");
  if (fcntl(channel, F_SETFL, fcntl(channel, F_GETFL) | O_NONBLOCK) != 0) fail("fcntl");
  if (fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK) != 0) fail("fcntl");
  if (send_line(channel, "{\"hookwerkAccept\":\"ready\"}\n") != 0) fail("the channel closed before ready");
  unsigned long dropped = 0;
  char sink[4096];
  for (;;) {
    struct pollfd fds[2] = {{.fd = channel, .events = POLLIN}, {.fd = listener, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      fail("poll");
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      /* Node's acknowledgements, dropped; end of file: the daemon is gone. */
      ssize_t n = recv(channel, sink, sizeof sink, 0);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
    }
    if (!(fds[1].revents & POLLIN)) continue;
    /* A bounded batch per wake-up, so the channel is read between batches. */
    for (int i = 0; i < 64; i++) {
      int conn = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
      if (conn < 0) break;
      struct ucred cred;
      socklen_t len = sizeof cred;
      if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof cred || cred.pid <= 0) {
        close(conn);
        continue;
      }
      if (hand_over(channel, conn, cred.uid, cred.gid, (long)cred.pid) != 0) {
        /* The daemon is gone; anything else (EAGAIN, ETOOMANYREFS: too many descriptors in
           flight, ENOBUFS) is a full channel: this connection is closed and counted. */
        if (errno == EPIPE || errno == ECONNRESET || errno == ENOTCONN || errno == EBADF) {
          close(conn);
          goto gone;
        }
        dropped++;
        if (dropped == 1 || dropped % 1000 == 0)
          fprintf(stderr, "hookwerk-accept: %lu connection(s) closed unanswered: the daemon's channel was full\n", dropped);
      }
      close(conn);
    }
  }
gone:
  if (dropped > 0) fprintf(stderr, "hookwerk-accept: %lu connection(s) closed unanswered in all\n", dropped);
  return 0;
}
