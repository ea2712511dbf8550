/* A sweep's runs on threads, each into its folder, then sweep.csv (sweep_table.c); with
 * resume, only the runs without a result of their own. */
#include "harness/sweep.h"
#include "core/status.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct pool {
    const cloth_sweep *sw;
    const char *out_dir;
    const cloth_sweep_def *def;
    result *results;
    const unsigned char *skip;    /* per run: 1 = not run (resume), or NULL   */
    int todo;                     /* runs to run                              */
    int next, done;               /* guarded by lock                          */
    pthread_mutex_t lock;
    double start;
} pool;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void run_one(pool *p, int i)
{
    const sweep_run *run = &p->sw->runs[i];
    result *res = &p->results[i];
    cloth_scene scene;
    cloth_error err;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", p->out_dir, run->folder);
    cloth_status st = cloth__sweep_scene(p->sw, i, &scene, &err);
    snprintf(res->kernel, sizeof res->kernel, "%s", scene.run.kernel);
    if (p->def->ids) {
        /* an earlier result stops counting before this run rewrites its files */
        char done[1040];
        snprintf(done, sizeof done, "%s/run.done", dir);
        remove(done);
    }
    if (st == CLOTH_OK)
        st = cloth_run(&scene, dir, NULL, &res->summary, &err);
    res->started = st == CLOTH_OK;
    res->status = "failed";
    if (st != CLOTH_OK)
        snprintf(res->message, sizeof res->message, "%s", err.msg);
    else if (p->def->ids && cloth_run_mark_done(dir, p->def->ids[i], &res->summary, &err) != CLOTH_OK
             && p->def->progress)
        fprintf(p->def->progress, "cloth: %s\n", err.msg); /* the run will count as missing */
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (p->next < p->sw->n_runs && p->skip && p->skip[p->next])
            p->next++;
        int i = p->next < p->sw->n_runs ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (i < 0)
            return NULL;
        run_one(p, i);
        pthread_mutex_lock(&p->lock);
        p->done++;
        if (p->def->progress) {
            const result *r = &p->results[i];
            fprintf(p->def->progress, "[%3d/%d %6.1fs] %s: %s\n", p->done, p->todo,
                    now_s() - p->start, p->sw->runs[i].label,
                    r->started ? cloth_run_status_string(r->summary.status) : r->message);
            fflush(p->def->progress);
        }
        pthread_mutex_unlock(&p->lock);
    }
}

void cloth_default_sweep_def(cloth_sweep_def *def)
{
    *def = (cloth_sweep_def){.jobs = 1, .progress = NULL, .ids = NULL, .resume = 0, .table = 1};
}

cloth_status cloth_sweep_execute(const cloth_sweep *sw, const char *out_dir,
                                 const cloth_sweep_def *def, int *not_ok, cloth_error *err)
{
    if (def->jobs < 1 || def->jobs > 256)
        return cloth__fail(err, CLOTH_EINVAL, "jobs: %d is out of range: must be in [1, 256]",
                           def->jobs);
    if (def->resume && !def->ids)
        return cloth__fail(err, CLOTH_EINVAL, "sweep: resuming needs the runs' ids");
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot create folder: %s", out_dir,
                           strerror(errno));
    pool p = {sw, out_dir, def, calloc((size_t)sw->n_runs, sizeof(result)), NULL, sw->n_runs,
              0, 0, PTHREAD_MUTEX_INITIALIZER, now_s()};
    unsigned char *skip = def->resume ? calloc((size_t)sw->n_runs, 1) : NULL;
    if (!p.results || (def->resume && !skip)) {
        free(p.results);
        free(skip);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for %d runs", sw->n_runs);
    }
    for (int i = 0; skip && i < sw->n_runs; i++) {
        folder_state state;
        cloth_status st = cloth__sweep_read_folder(out_dir, &sw->runs[i], def->ids[i], NULL, &state, err);
        if (st != CLOTH_OK) {
            free(p.results);
            free(skip);
            return st;
        }
        skip[i] = state == FOLDER_FRESH;
        p.todo -= skip[i];
    }
    p.skip = skip;
    pthread_t threads[256];
    int started = 0;
    for (int t = 0; t < def->jobs - 1 && t < p.todo - 1; t++)
        if (pthread_create(&threads[t], NULL, worker, &p) == 0)
            started++;
    worker(&p); /* the calling thread works too */
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    cloth_status st = def->table ? cloth__sweep_write_table(sw, out_dir, p.results, err) : CLOTH_OK;
    int bad = 0;
    for (int i = 0; i < sw->n_runs; i++)
        bad += !(skip && skip[i]) &&
               (!p.results[i].started || p.results[i].summary.status != CLOTH_RUN_OK);
    if (not_ok)
        *not_ok = bad;
    free(p.results);
    free(skip);
    pthread_mutex_destroy(&p.lock);
    return st;
}

cloth_status cloth_sweep_run(const cloth_sweep *sw, const char *out_dir, int jobs,
                             FILE *progress, int *not_ok, cloth_error *err)
{
    cloth_sweep_def def;
    cloth_default_sweep_def(&def);
    def.jobs = jobs;
    def.progress = progress;
    return cloth_sweep_execute(sw, out_dir, &def, not_ok, err);
}
