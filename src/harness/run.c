/*
 * A run: frames of a sim written to a folder (SPEC 5).
 *
 *   series.csv   one row per frame, flushed every frame
 *   newton.csv   one row per Newton iteration (kernels with a log)
 *   final.obj    the last positions with the faces
 *   summary.csv  one row: settings and results, status ok | diverged | not-converged |
 *                step-failed
 *
 * Every file is written as NAME.part and renamed when the run ends, so a run that is
 * killed leaves no half-written file under a final name, and a run that diverges or whose
 * step fails keeps every row it wrote (final.obj is then not written).
 */
#include "core/status.h"
#include "sim/sim.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct out_file {
    FILE *f;
    char path[1024];            /* final name */
    char part[1040];            /* NAME.part while writing */
} out_file;

static cloth_status out_open(out_file *o, const char *dir, const char *name,
                             cloth_error *err)
{
    snprintf(o->path, sizeof o->path, "%s/%s", dir, name);
    snprintf(o->part, sizeof o->part, "%s.part", o->path);
    o->f = fopen(o->part, "w");
    if (!o->f)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", o->part, strerror(errno));
    return CLOTH_OK;
}

/* Closes and renames into place; on a write error keeps the .part and says so. */
static cloth_status out_close(out_file *o, cloth_status st, cloth_error *err)
{
    if (!o->f)
        return st;
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad || rename(o->part, o->path) != 0) {
        if (st == CLOTH_OK)
            st = cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", o->path, strerror(errno));
    }
    return st;
}

/* mkdir -p */
static cloth_status make_dir(const char *dir, cloth_error *err)
{
    char buf[1024];
    if (strlen(dir) >= sizeof buf)
        return cloth__fail(err, CLOTH_EIO, "%s: path too long", dir);
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char saved = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return cloth__fail(err, CLOTH_EIO, "%s: cannot create folder: %s", buf,
                                   strerror(errno));
            *p = saved;
            if (!saved)
                break;
        }
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cloth__fail(err, CLOTH_EIO, "%s: not a folder", dir);
    return CLOTH_OK;
}

/* The rows of the last frame's Newton log. */
static void write_newton_rows(FILE *f, const cloth_sim *sim)
{
    const cloth_newton_iter *rows;
    int n = cloth_sim_newton_log(sim, &rows);
    for (int i = 0; i < n; i++) {
        cloth_table_write_row(f, CLOTH_TABLE_NEWTON, &rows[i]);
        fputc('\n', f);
    }
}

/* One row of series.csv (columns.c). */
static void write_series_row(FILE *f, const cloth_frame *fr)
{
    cloth_table_write_row(f, CLOTH_TABLE_SERIES, fr);
    fputc('\n', f);
}

/* A table's header line. */
static void write_header(FILE *f, cloth_table t)
{
    cloth_table_write_header(f, t);
    fputc('\n', f);
}

/* Folds one frame into the summary; cond_sum/cond_count build the mean. */
static void accumulate(cloth_summary *s, const cloth_frame *fr, double *cond_sum,
                       long *cond_count)
{
    s->max_abs_drift = fmax(s->max_abs_drift, fabs(fr->drift));
    s->final_drift = fr->drift;
    s->max_stretch = fr->frame == 0 ? fr->stretch_max : fmax(s->max_stretch, fr->stretch_max);
    if (fr->has_gap)
        s->min_gap = isnan(s->min_gap) ? fr->min_gap : fmin(s->min_gap, fr->min_gap);
    if (fr->penetrations > s->max_penetrations)
        s->max_penetrations = fr->penetrations;
    if (fr->intersections > s->max_intersections)
        s->max_intersections = fr->intersections;
    s->total_iterations += fr->iterations;
    s->not_converged += fr->not_converged;
    s->regularized += fr->regularized;
    s->lin_capped += fr->lin_capped;
    if (fr->has_cond) {
        s->cond_max = isnan(s->cond_max) ? fr->cond_max : fmax(s->cond_max, fr->cond_max);
        *cond_sum += fr->cond_max;
        if (*cond_count == 0)
            snprintf(s->cond_method, sizeof s->cond_method, "%s", fr->cond_method);
        else if (strcmp(s->cond_method, fr->cond_method) != 0)
            snprintf(s->cond_method, sizeof s->cond_method, "mixed");
        ++*cond_count;
    }
    s->wall_ms += fr->wall_ms;
}

static void report_progress(FILE *progress, const cloth_sim *sim, long frame, long frames)
{
    if (!progress || frames < 10 || frame % (frames / 10) != 0)
        return;
    fprintf(progress, "  %s: frame %ld/%ld (%3.0f%%)\n", sim->kernel->name, frame, frames,
            100.0 * frame / frames);
    fflush(progress);
}

cloth_status cloth_run_sim(cloth_sim *sim, const char *out_dir, FILE *progress,
                           cloth_summary *summary, cloth_error *err)
{
    cloth_summary s = {.vertices = sim->mesh->n, .springs = sim->mesh->n_springs,
                       .dt = sim->scene.run.dt, .substeps = sim->scene.run.substeps,
                       .status = CLOTH_RUN_OK, .fail_frame = -1, .min_gap = NAN,
                       .cond_mean = NAN, .cond_max = NAN, .cond_method = "off"};
    snprintf(s.kernel, sizeof s.kernel, "%s", sim->kernel->name);
    double cond_sum = 0;
    long cond_count = 0;
    out_file series = {0}, newton = {0}, sum = {0};
    cloth_status st = make_dir(out_dir, err);
    if (st == CLOTH_OK)
        st = out_open(&series, out_dir, "series.csv", err);
    if (st == CLOTH_OK && sim->kernel->log)
        st = out_open(&newton, out_dir, "newton.csv", err);
    if (st != CLOTH_OK) {
        if (series.f) {
            fclose(series.f);
            remove(series.part);
        }
        return st;
    }
    write_header(series.f, CLOTH_TABLE_SERIES);
    if (newton.f)
        write_header(newton.f, CLOTH_TABLE_NEWTON);

    cloth_frame fr;
    cloth_sim_measure(sim, &fr);
    write_series_row(series.f, &fr);
    accumulate(&s, &fr, &cond_sum, &cond_count);
    long frames = sim->scene.run.frames;
    for (long k = 1; k <= frames; k++) {
        cloth_error step_err;
        if (cloth_sim_frame(sim, &fr, &step_err) != CLOTH_OK) {
            s.status = sim->step_failed ? CLOTH_RUN_STEP_FAILED : CLOTH_RUN_DIVERGED;
            s.fail_frame = sim->frame + 1;
            snprintf(s.message, sizeof s.message, "%s", step_err.msg);
            if (newton.f)
                write_newton_rows(newton.f, sim);
            break;
        }
        write_series_row(series.f, &fr);
        if (newton.f)
            write_newton_rows(newton.f, sim);
        accumulate(&s, &fr, &cond_sum, &cond_count);
        s.frames = k;
        report_progress(progress, sim, k, frames);
        /* rows reach the disk every frame; a write that fails (a full disk) ends the run
         * here rather than at the last frame, and closing the file names it */
        if (fflush(series.f) != 0 || (newton.f && fflush(newton.f) != 0))
            break;
    }
    if (s.status == CLOTH_RUN_OK && s.not_converged > 0)
        s.status = CLOTH_RUN_NOT_CONVERGED;
    if (cond_count)
        s.cond_mean = cond_sum / cond_count;

    st = out_close(&series, CLOTH_OK, err);
    st = out_close(&newton, st, err);
    if (s.fail_frame < 0) {
        char obj[1024];
        snprintf(obj, sizeof obj, "%s/final.obj", out_dir);
        if (st == CLOTH_OK)
            st = cloth_mesh_write_obj(sim->mesh, sim->x, obj, err);
    }
    if (st == CLOTH_OK)
        st = out_open(&sum, out_dir, "summary.csv", err);
    if (st == CLOTH_OK) {
        write_header(sum.f, CLOTH_TABLE_SUMMARY);
        cloth_table_write_row(sum.f, CLOTH_TABLE_SUMMARY, &s);
        fputc('\n', sum.f);
        st = out_close(&sum, st, err);
    }
    if (summary)
        *summary = s;
    return st;
}

cloth_status cloth_run(const cloth_scene *scene, const char *out_dir, FILE *progress,
                       cloth_summary *summary, cloth_error *err)
{
    cloth_sim *sim;
    cloth_status st = cloth_sim_create(scene, &sim, err);
    if (st != CLOTH_OK)
        return st;
    st = cloth_run_sim(sim, out_dir, progress, summary, err);
    cloth_sim_destroy(sim);
    return st;
}

/* run.done: the last file a run of a sweep gets, so its presence means summary.csv is
 * whole.  The message goes on one line (a newline in it would end the file's field). */
cloth_status cloth_run_mark_done(const char *out_dir, const char *id,
                                 const cloth_summary *summary, cloth_error *err)
{
    out_file done = {0};
    cloth_status st = out_open(&done, out_dir, "run.done", err);
    if (st != CLOTH_OK)
        return st;
    fprintf(done.f, "id %s\nmessage ", id);
    for (const char *c = summary->message; *c; c++)
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, done.f);
    fputc('\n', done.f);
    return out_close(&done, CLOTH_OK, err);
}
