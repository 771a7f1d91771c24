/* host-speed.c: a side program, not scanbench: how much a fixed CPU-bound loop's time varies on
 * this host, item to item, with a pause between items (as a live scan follows an eviction's
 * waits) or none. usage: host-speed ITERATIONS ITEMS PAUSE_MS; prints the mean, the cv, the
 * lag-1 autocorrelation and the cv of successive differences / sqrt(2) (the noise a pair of
 * neighbouring items sees). Build: cc -O2 -o host-speed host-speed.c -lm */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    unsigned long iterations = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000000;
    int items = argc > 2 ? atoi(argv[2]) : 120;
    long pause_ms = argc > 3 ? atol(argv[3]) : 0;
    double *x = calloc((size_t)items, sizeof *x), mean = 0, var = 0, lag = 0, diff = 0;
    volatile unsigned long sink = 0;

    if (!x || items < 3)
        return 2;
    for (int k = 0; k < items; k++) {
        double t = now();
        for (unsigned long i = 0; i < iterations; i++)
            sink += i * i;
        x[k] = now() - t;
        if (pause_ms) {
            struct timespec z = {pause_ms / 1000, (pause_ms % 1000) * 1000000};
            nanosleep(&z, NULL);
        }
    }
    for (int k = 0; k < items; k++)
        mean += x[k] / items;
    for (int k = 0; k < items; k++)
        var += (x[k] - mean) * (x[k] - mean);
    for (int k = 1; k < items; k++) {
        lag += (x[k] - mean) * (x[k - 1] - mean);
        diff += (x[k] - x[k - 1]) * (x[k] - x[k - 1]);
    }
    printf("%lu iterations, %d items, pause %ld ms: mean %.1f ms, cv %.1f%%, lag-1 "
           "autocorrelation %.2f, successive differences %.1f%%\n", iterations, items, pause_ms,
           mean * 1e3, 100 * sqrt(var / (items - 1)) / mean, lag / var,
           100 * sqrt(diff / (items - 1) / 2) / mean);
    free(x);
    return 0;
}
