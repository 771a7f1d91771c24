/* SPDX-License-Identifier: BSD-3-Clause */
/* team.c: a configuration's scanner threads: where each runs (cpu_place.h), the barriers, the
 * loop. */
#include "config.h"
#include "engine/team.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"

/* --- where each scanner runs (cpu_place.h) ------------------------------------------------- */

struct pins {
    uint32_t n;
    struct sb_cpu_place *place;
};

static void pins_free(struct pins *pp)
{
    free(pp->place);
    memset(pp, 0, sizeof *pp);
}

static int pins_make(struct pins *pp, uint32_t n)
{
    memset(pp, 0, sizeof *pp);
    pp->n = n;
    pp->place = calloc(n, sizeof *pp->place);
    if (!pp->place)
        return -1;
    sb_cpu_places(n, pp->place);
    return 0;
}

void sb_team_place_of(uint32_t n, uint32_t i, struct sb_cpu_place *place)
{
    struct pins pp;

    memset(place, 0, sizeof *place);
    place->pu = place->core = -1;
    place->node = sb_numa_node_here();
    if (n <= 1) {
        snprintf(place->why, sizeof place->why, "one scanner: the calling thread, not pinned");
        return;
    }
    if (pins_make(&pp, n) == 0) {
        *place = pp.place[i];
        if (!place->pinnable)
            place->node = sb_numa_node_here();
    }
    pins_free(&pp);
}

/* --- a barrier whose party count can be lowered before the first wait -------------------- */

struct barrier {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned parties, waiting, generation;
};

static int barrier_init(struct barrier *b, unsigned parties)
{
    b->parties = parties;
    b->waiting = b->generation = 0;
    if (pthread_mutex_init(&b->mutex, NULL) != 0)
        return -1;
    if (pthread_cond_init(&b->cond, NULL) != 0) {
        pthread_mutex_destroy(&b->mutex);
        return -1;
    }
    return 0;
}

static void barrier_destroy(struct barrier *b)
{
    pthread_cond_destroy(&b->cond);
    pthread_mutex_destroy(&b->mutex);
}

static void barrier_set_parties(struct barrier *b, unsigned parties)
{
    pthread_mutex_lock(&b->mutex);
    b->parties = parties;
    pthread_mutex_unlock(&b->mutex);
}

static void barrier_wait(struct barrier *b)
{
    unsigned generation;

    pthread_mutex_lock(&b->mutex);
    generation = b->generation;
    if (++b->waiting >= b->parties) {
        b->waiting = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cond);
    } else {
        while (generation == b->generation)
            pthread_cond_wait(&b->cond, &b->mutex);
    }
    pthread_mutex_unlock(&b->mutex);
}

/* --- the team ----------------------------------------------------------------------------- */

struct worker {
    struct sb_team *team;
    uint32_t index;
    pthread_t thread;
    bool started, pinned;
};

struct sb_team {
    uint32_t n, started;
    sb_team_fn fn;
    void *ctx;
    struct pins pins;
    struct barrier start, done;
    bool barriers;
    const void *phase; /* set by the caller before the start barrier; NULL: quit */
    struct worker *workers;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct sb_team *team = w->team;

    w->pinned = sb_cpu_bind(&team->pins.place[w->index]);
    for (;;) {
        const void *phase;
        barrier_wait(&team->start);
        phase = team->phase;
        if (!phase)
            break;
        team->fn(team->ctx, w->index, phase);
        barrier_wait(&team->done);
    }
    return NULL;
}

static int start_threads(struct sb_team *t, struct sb_error *err)
{
    if (pins_make(&t->pins, t->n) != 0 || !(t->workers = calloc(t->n, sizeof *t->workers)))
        return sb_fail(err, SB_ERR_RUN, "out of memory for %u scanners", t->n);
    if (barrier_init(&t->start, t->n + 1) != 0)
        return sb_fail(err, SB_ERR_RUN, "cannot make the scanners' barriers");
    if (barrier_init(&t->done, t->n + 1) != 0) {
        barrier_destroy(&t->start);
        return sb_fail(err, SB_ERR_RUN, "cannot make the scanners' barriers");
    }
    t->barriers = true;
    for (; t->started < t->n; t->started++) {
        struct worker *w = &t->workers[t->started];
        w->team = t;
        w->index = t->started;
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
            break;
        w->started = true;
    }
    if (t->started == t->n)
        return SB_OK;
    barrier_set_parties(&t->start, t->started + 1);
    barrier_set_parties(&t->done, t->started + 1);
    return sb_fail(err, SB_ERR_RUN, "cannot start scanner %u of %u", t->started, t->n);
}

int sb_team_start(struct sb_team **team, uint32_t n, sb_team_fn fn, void *ctx,
                  struct sb_error *err)
{
    struct sb_team *t = calloc(1, sizeof *t);
    int status = SB_OK;

    *team = t;
    if (!t)
        return sb_fail(err, SB_ERR_RUN, "out of memory for a team");
    t->n = n ? n : 1;
    t->fn = fn;
    t->ctx = ctx;
    if (t->n > 1)
        status = start_threads(t, err);
    return status;
}

void sb_team_run(struct sb_team *team, const void *phase)
{
    if (team->n == 1) {
        team->fn(team->ctx, 0, phase);
        return;
    }
    team->phase = phase;
    barrier_wait(&team->start);
    barrier_wait(&team->done);
}

bool sb_team_pinned(const struct sb_team *team, uint32_t i)
{
    return team->n > 1 && i < team->started && team->workers[i].pinned;
}

void sb_team_stop(struct sb_team *team)
{
    if (!team)
        return;
    if (team->barriers) {
        team->phase = NULL;
        barrier_wait(&team->start);
        for (uint32_t i = 0; i < team->started; i++)
            pthread_join(team->workers[i].thread, NULL);
        barrier_destroy(&team->start);
        barrier_destroy(&team->done);
    }
    pins_free(&team->pins);
    free(team->workers);
    free(team);
}
