/* floor: the practical floor of sampling cost.  Opens every file of a list
 * once, then at a fixed rate preads each one at offset 0 and parses the
 * integer in it -- what any sampler must do at the least, with nothing
 * else (no integration, no history, no recording).
 *
 *   floor LISTFILE INTERVAL_MS DURATION_S [SLOWLIST]
 *
 * Files of SLOWLIST are read only when 90 ms have passed since they last
 * were, on dvfstop's schedule for seldom telemetry (J_SELDOM_NS in
 * core/source/jetson_priv.h, read in jetson_sample.c).
 *
 * Prints "samples N" when done.  Sleeps to absolute deadlines on
 * CLOCK_MONOTONIC, as dvfstop does, so both wake the same number of times. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_FILES = 256 };

static long long ts_ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static long long read_all(const int *fds, int n)
{
	long long sum = 0;
	for (int i = 0; i < n; i++) {
		char buf[1024];
		ssize_t r = pread(fds[i], buf, sizeof buf - 1, 0);
		if (r < 0)
			continue;
		buf[r] = '\0';
		sum += strtoll(buf, NULL, 10);
	}
	return sum;
}

/* Open every file named in list (one per line); their count, or -1. */
static int open_list(const char *list, int *fds, int max)
{
	FILE *lf = fopen(list, "r");
	if (!lf) {
		fprintf(stderr, "floor: %s: %s\n", list, strerror(errno));
		return -1;
	}
	int n = 0;
	char line[4096];
	while (n < max && fgets(line, sizeof line, lf)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		fds[n] = open(line, O_RDONLY | O_CLOEXEC);
		if (fds[n] < 0) {
			fprintf(stderr, "floor: %s: %s\n", line, strerror(errno));
			fclose(lf);
			return -1;
		}
		n++;
	}
	fclose(lf);
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: floor LISTFILE INTERVAL_MS DURATION_S [SLOWLIST]\n");
		return 2;
	}
	long long interval = atoll(argv[2]) * 1000000LL;
	long long duration = (long long)(atof(argv[3]) * 1e9);
	if (interval <= 0 || duration <= 0) {
		fprintf(stderr, "floor: bad interval or duration\n");
		return 2;
	}
	int fds[MAX_FILES], slow[MAX_FILES];
	int n = open_list(argv[1], fds, MAX_FILES);
	int ns = argc == 5 ? open_list(argv[4], slow, MAX_FILES) : 0;
	if (n < 0 || ns < 0)
		return 1;
	long long slow_t = 0;

	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long start = ts_ns(&t), next = start;
	long long samples = 0, sum = 0;
	while (next - start < duration) {
		struct timespec d = { (time_t)(next / 1000000000LL), (long)(next % 1000000000LL) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL) == EINTR)
			;
		sum += read_all(fds, n);
		if (ns && (samples == 0 || next - slow_t >= 90000000LL)) {
			sum += read_all(slow, ns);
			slow_t = next;
		}
		samples++;
		next += interval;
	}
	/* sum is printed so the compiler keeps the parsing */
	printf("samples %lld files %d+%d checksum %lld\n", samples, n, ns, sum & 0xff);
	return 0;
}
