/*
 * mockkafka: librdkafka's in-process mock Kafka cluster as a standalone process, for tests and the local
 * cluster (Kafka itself cannot be installed on the build machines; see docs on the mock's limits below).
 *
 * usage:   mockkafka <brokers> [topic:partitions[:replication]]...
 * build:   gcc -O2 -o mockkafka mockkafka.c -lrdkafka          (needs librdkafka-dev >= 2.0)
 * stdout:  the first line is the bootstrap list "127.0.0.1:P1,127.0.0.1:P2,..." (random ports); then one
 *          reply line per command: "OK" or "ERR <reason>".
 * stdin:   one command per line; broker ids are 1..N, -1 means every broker:
 *            down BROKER                       disconnect the broker and refuse new connections
 *            up BROKER                         accept connections again
 *            leader TOPIC PARTITION BROKER     move a partition's leader (-1: leaderless)
 *            rtt BROKER MS                     delay every response of the broker
 *            topic NAME PARTITIONS REPLICAS    create a topic (the mock has no CreateTopics API)
 *            ping                              replies OK (lets a driver wait for the cluster)
 *
 * Lifetime: the process lives until SIGTERM/SIGINT or until its parent dies. It asks the kernel for a
 * SIGTERM when the parent exits (Linux prctl PR_SET_PDEATHSIG), so a crashed test runner never leaves
 * mock brokers behind. End of stdin only stops command processing: a long-lived CLI may start it with
 * stdin closed or from a FIFO whose writer comes and goes, and it must keep serving.
 *
 * What the mock cannot do (librdkafka 2.0.2) with kafkajs: CreateTopics/DeleteTopics (no handler, and it
 * advertises controllerId 0 while brokers are 1..N), idempotent and transactional producers. Data lives in
 * memory only; "replicas" exist only in metadata.
 */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static volatile sig_atomic_t run = 1;

static void on_signal(int sig) {
  (void)sig;
  run = 0;
}

static void reply(rd_kafka_resp_err_t err) {
  if (err)
    printf("ERR %s\n", rd_kafka_err2str(err));
  else
    printf("OK\n");
  fflush(stdout);
}

/* Parses "name:partitions[:replication]" and creates the topic. */
static void create_topic_arg(rd_kafka_mock_cluster_t *mc, const char *arg) {
  char name[256];
  int partitions = 1, replication = 1;
  strncpy(name, arg, sizeof name - 1);
  name[sizeof name - 1] = 0;
  char *colon = strchr(name, ':');
  if (colon) {
    *colon = 0;
    partitions = atoi(colon + 1);
    char *colon2 = strchr(colon + 1, ':');
    if (colon2) replication = atoi(colon2 + 1);
  }
  rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc, name, partitions, replication);
  if (err) {
    fprintf(stderr, "mockkafka: topic %s: %s\n", name, rd_kafka_err2str(err));
    exit(2);
  }
}

int main(int argc, char **argv) {
  pid_t parent = getppid();
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  /* The parent may have died before prctl took effect: then we were re-parented already. */
  if (getppid() != parent) return 0;
#endif

  /* Without SA_RESTART, a signal interrupts the blocking read of stdin so the loop can stop. */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  char err[512];
  int brokers = argc > 1 ? atoi(argv[1]) : 1;
  if (brokers < 1) {
    fprintf(stderr, "usage: mockkafka <brokers> [topic:partitions[:replication]]...\n");
    return 2;
  }
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", err, sizeof err);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk) {
    fprintf(stderr, "mockkafka: rd_kafka_new: %s\n", err);
    return 1;
  }
  rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, brokers);
  if (!mc) {
    fprintf(stderr, "mockkafka: could not create the mock cluster\n");
    return 1;
  }
  for (int i = 2; i < argc; i++) create_topic_arg(mc, argv[i]);

  printf("%s\n", rd_kafka_mock_cluster_bootstraps(mc));
  fflush(stdout);

  char line[512];
  while (run) {
    if (!fgets(line, sizeof line, stdin)) {
      if (ferror(stdin) && errno == EINTR) {
        clearerr(stdin);
        continue; /* a signal: `run` tells whether to stop */
      }
      break; /* end of stdin: keep serving, below */
    }
    char name[256];
    int a = 0, b = 0, c = 0;
    if (sscanf(line, "down %d", &a) == 1)
      reply(rd_kafka_mock_broker_set_down(mc, a));
    else if (sscanf(line, "up %d", &a) == 1)
      reply(rd_kafka_mock_broker_set_up(mc, a));
    else if (sscanf(line, "leader %255s %d %d", name, &b, &c) == 3)
      reply(rd_kafka_mock_partition_set_leader(mc, name, b, c));
    else if (sscanf(line, "rtt %d %d", &a, &b) == 2)
      reply(rd_kafka_mock_broker_set_rtt(mc, a, b));
    else if (sscanf(line, "topic %255s %d %d", name, &b, &c) == 3)
      reply(rd_kafka_mock_topic_create(mc, name, b, c));
    else if (strncmp(line, "ping", 4) == 0)
      reply(RD_KAFKA_RESP_ERR_NO_ERROR);
    else {
      line[strcspn(line, "\n")] = 0;
      printf("ERR unknown command: %s\n", line);
      fflush(stdout);
    }
  }
  /* Block the signals while testing `run`, and wait for them atomically: no wake-up can be missed. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &old);
  while (run) sigsuspend(&old);

  /* No rd_kafka_mock_cluster_destroy/rd_kafka_destroy: they take ~2 s (broker threads wind down) and
     there is nothing to flush, the mock's data lives in memory. The kernel closes the listeners. */
  fflush(stdout);
  _exit(0);
}
