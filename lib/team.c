/* team.c: a configuration's scanner threads: where each runs (hwloc), the barriers, the loop. */
#include "config.h"
#include "team.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

#ifdef HAVE_HWLOC
#include <hwloc.h>
#endif

/* --- where each scanner runs ------------------------------------------------------------- */

struct pins {
    uint32_t n;
    struct sb_team_place *place;
#ifdef HAVE_HWLOC
    hwloc_topology_t topo;
#endif
};

static void pins_free(struct pins *pp)
{
#ifdef HAVE_HWLOC
    if (pp->topo)
        hwloc_topology_destroy(pp->topo);
#endif
    free(pp->place);
    memset(pp, 0, sizeof *pp);
}

/* Scanner i on the (i mod cores)th core, on that core's first PU. */
static void pins_find(struct pins *pp)
{
#ifdef HAVE_HWLOC
    int ncores;
    const char *why = NULL;

    if (hwloc_topology_init(&pp->topo) != 0 || hwloc_topology_load(pp->topo) != 0)
        why = "not pinned: hwloc could not read the topology";
    else if ((ncores = hwloc_get_nbobjs_by_type(pp->topo, HWLOC_OBJ_CORE)) <= 0)
        why = "not pinned: hwloc found no cores";
    for (uint32_t i = 0; !why && i < pp->n; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(pp->topo, HWLOC_OBJ_CORE,
                                                 (unsigned)(i % (uint32_t)ncores));
        hwloc_obj_t pu = core ? hwloc_get_obj_inside_cpuset_by_type(pp->topo, core->cpuset,
                                                                    HWLOC_OBJ_PU, 0) : NULL;
        if (!pu) {
            why = "not pinned: hwloc found no PU in a core";
            break;
        }
        pp->place[i].pinnable = true;
        pp->place[i].pu = (int)pu->os_index;
        pp->place[i].core = (int)core->logical_index;
        pp->place[i].node = sb_numa_node_of_cpu(pp->place[i].pu);
    }
    for (uint32_t i = 0; why && i < pp->n; i++) {
        pp->place[i].pinnable = false;
        pp->place[i].pu = pp->place[i].core = pp->place[i].node = -1;
        snprintf(pp->place[i].why, sizeof pp->place[i].why, "%s", why);
    }
#else
    for (uint32_t i = 0; i < pp->n; i++)
        snprintf(pp->place[i].why, sizeof pp->place[i].why,
                 "not pinned: built without hwloc (configure --with-hwloc; Debian: libhwloc-dev)");
#endif
}

static int pins_make(struct pins *pp, uint32_t n)
{
    memset(pp, 0, sizeof *pp);
    pp->n = n;
    pp->place = calloc(n, sizeof *pp->place);
    if (!pp->place)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        pp->place[i].pu = pp->place[i].core = pp->place[i].node = -1;
    pins_find(pp);
    return 0;
}

void sb_team_place_of(uint32_t n, uint32_t i, struct sb_team_place *place)
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

/* Binds the calling thread to worker i's PU. */
static bool pin_self(struct pins *pp, uint32_t i)
{
#ifdef HAVE_HWLOC
    hwloc_bitmap_t set;
    bool ok;

    if (!pp->place[i].pinnable || !(set = hwloc_bitmap_alloc()))
        return false;
    hwloc_bitmap_only(set, (unsigned)pp->place[i].pu);
    ok = hwloc_set_cpubind(pp->topo, set, HWLOC_CPUBIND_THREAD) == 0;
    hwloc_bitmap_free(set);
    return ok;
#else
    (void)pp;
    (void)i;
    return false;
#endif
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

    w->pinned = pin_self(&team->pins, w->index);
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
