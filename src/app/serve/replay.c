/*
 * Replaying a recording (replay.h, `cloth serve --replay`): its samples shown as the
 * sim's positions, the cloth's and the body's.  The play and seek commands and the
 * clock that moves to the next sample: commands.c.
 */
#include "app/serve/replay.h"

#include <stdlib.h>

/* Shows sample k: its positions become the sim's (nothing steps a replay). */
int cloth__viewer_show_sample(cloth__viewer *v, int k)
{
    cloth_error err;
    if (cloth_pc2_sample(v->replay, k, v->replay_buf, &err) != CLOTH_OK)
        return 0;
    if (v->body_replay && cloth_pc2_sample(v->body_replay, k, v->body_sample, &err) != CLOTH_OK)
        return 0;
    double *x = cloth_sim_positions(v->sim);
    int n = cloth_sim_mesh(v->sim)->n;
    for (int i = 0; i < 3 * n; i++)
        x[i] = v->replay_buf[i];
    for (int i = 0; v->body_replay && i < 3 * v->body_n; i++)
        v->body_x[i] = v->body_sample[i];
    v->replay_frame = k;
    return 1;
}

int cloth__viewer_replay(cloth__viewer *v, cloth_pc2 *r, double dt)
{
    cloth_pc2_info info;
    cloth_pc2_header(r, &info);
    if (info.points != cloth_sim_mesh(v->sim)->n || info.samples < 1)
        return -1;
    v->replay_buf = malloc(sizeof(float) * 3 * (size_t)info.points);
    if (!v->replay_buf)
        return -1;
    v->replay = r;
    v->replay_samples = info.samples;
    v->replay_dt = dt;
    v->playing = 1;
    return cloth__viewer_show_sample(v, 0) ? 0 : -1;
}

int cloth__viewer_replay_body(cloth__viewer *v, cloth_pc2 *body, const int *tris, int n_tris)
{
    cloth_pc2_info info;
    cloth_pc2_header(body, &info);
    if (info.samples != v->replay_samples || info.points < 1 || n_tris < 1)
        return -1;
    for (int t = 0; t < 3 * n_tris; t++)
        if (tris[t] < 0 || tris[t] >= info.points)
            return -1;
    free(v->body_x);
    v->body_x = malloc(sizeof(double) * 3 * (size_t)info.points);
    v->body_sample = malloc(sizeof(float) * 3 * (size_t)info.points);
    if (!v->body_x || !v->body_sample)
        return -1;
    v->body_replay = body;
    v->body_n = info.points;
    v->body_tris = tris;
    v->body_n_tris = n_tris;
    return cloth__viewer_show_sample(v, v->replay_frame) ? 0 : -1;
}
