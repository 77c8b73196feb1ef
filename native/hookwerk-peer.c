/*
 * hookwerk-peer: the Node client's eyes for who listens on the daemon socket [T-SELF-4]. Node has
 * no API for a Unix socket's peer credentials, so `hookwerk hook` hands its connected socket to
 * this program as descriptor 3 and asks:
 *
 *   hookwerk-peer SCRIPT UID
 *
 * SCRIPT is the installation's bin/hookwerk.js, UID the account the daemon must run as. Exit 0: the peer is that account's `hookwerk
 * daemon` of this installation; 1: it is not (why, one line on stdout); 2: this platform cannot
 * tell (why on stdout); 3: the listener has exited. Built beside the C client by
 * scripts/build-launcher.js.
 *
 *   hookwerk-peer --system DOOR SCRIPT UID
 *
 * [T-MGD-3] The system daemon's socket instead: UID is the socket's owner (the daemon's account),
 * DOOR this installation's dist/native/hookwerk-accept (peer-verify.h `verify_system_peer`).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer-verify.h"

static int exit_code(int result) {
  return result == PEER_OK ? 0 : result == PEER_UNCHECKED ? 2 : result == PEER_GONE ? 3 : 1;
}

int main(int argc, char **argv) {
  const char *why = "";
  if (argc == 5 && strcmp(argv[1], "--system") == 0) {
    char *end = NULL;
    unsigned long uid = strtoul(argv[4], &end, 10);
    if (end == argv[4] || *end != '\0') {
      fputs("hookwerk-peer: UID must be a number\n", stderr);
      return 64;
    }
    int result = verify_system_peer(3, (uid_t)uid, argv[2], argv[3], &why);
    if (result != PEER_OK) printf("%s\n", why);
    return exit_code(result);
  }
  if (argc != 3) {
    fputs("usage: hookwerk-peer SCRIPT UID (the socket on descriptor 3)\n", stderr);
    return 64;
  }
  char *end = NULL;
  unsigned long uid = strtoul(argv[2], &end, 10);
  if (end == argv[2] || *end != '\0') {
    fputs("hookwerk-peer: UID must be a number\n", stderr);
    return 64;
  }
  int result = verify_daemon_peer(3, (uid_t)uid, argv[1], &why);
  if (result != PEER_OK) printf("%s\n", why);
  return exit_code(result);
}
