/*
 * cloth garment PATTERN.json [--out DIR] [--kernel NAME] [--scene SCENE.ini]
 *                            [--avatar SCENE.ini] [--set section.key=value]...
 *
 * The pattern's panels meshed (DIR/panel_NAME.obj, flat, in metres), placed around the
 * body (DIR/placed.obj: on the bones of the mannequin at the scene's avatar.scale, 1
 * without an [avatar]), sewn with the kernel and welded (DIR/sewn.obj); prints the
 * counts, the smallest angle and the sewing steps to weld.  The sewing scene is the
 * defaults (or SCENE.ini) with run.dt = 1/60 s and run.substeps the kernel's own
 * (cloth list --kernels) and its condition numbers off (its cond_off), then the --set
 * overrides; gravity is off while sewing and garment.sew_damping is the air damping.
 *
 * --avatar SCENE.ini (the scene must have an [avatar]; it replaces --scene) then runs the
 * try-on: the welded garment as the scene's cloth (its mesh keys other than pins are not
 * read), gravity, the avatar and its motion as the scene has them, run.dt, run.substeps
 * and run.frames of the scene (then --kernel and --set), written by cloth_run_sim into
 * DIR/tryon/ (series.csv with body_depth, summary.csv, final.obj; body.obj, the
 * mannequin's drawing surface in its pose at the end).  The sewing takes the
 * kernel's own frame substeps as without --avatar; the try-on the scene's.
 */
#include "app/garment.h"
#include "body/avatar.h"
#include "garment/garment.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EXIT_RUN_FAILED 1
#define EXIT_BAD_INPUT 2

static int fail(int code, const char *msg)
{
    fprintf(stderr, "cloth: %s\n", msg);
    return code;
}

static cloth_status write_obj(const char *dir, const char *name, const double *x, int n,
                              const int *tris, int n_tris, cloth_error *err)
{
    char path[1024];
    int len = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (len < 0 || (size_t)len >= sizeof path) {
        snprintf(err->msg, sizeof err->msg, "%.400s: path too long", dir);
        return CLOTH_EINVAL;
    }
    cloth_mesh m = {0};
    m.n = n;
    m.n_tris = n_tris;
    m.tris = (int *)tris;
    return cloth_mesh_write_obj(&m, x, path, err);
}

/* The panels flat (z = 0), in metres. */
static cloth_status write_panels(const cloth__garment *g, const char *dir, cloth_error *err)
{
    for (int i = 0; i < g->pattern->n_panels; i++) {
        const cloth__panel_mesh *pm = &g->panels[i];
        double *x = malloc(sizeof(double) * 3 * (size_t)pm->n);
        if (!x) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return CLOTH_ENOMEM;
        }
        for (int v = 0; v < pm->n; v++) {
            x[3 * v] = 0.01 * pm->uv[2 * v];
            x[3 * v + 1] = 0.01 * pm->uv[2 * v + 1];
            x[3 * v + 2] = 0;
        }
        char name[64];
        snprintf(name, sizeof name, "panel_%s.obj", g->pattern->panels[i].name);
        cloth_status st = write_obj(dir, name, x, pm->n, pm->tris, pm->n_tris, err);
        free(x);
        if (st != CLOTH_OK)
            return st;
    }
    return CLOTH_OK;
}

/* Once the panels are placed (cloth__garment_make): the pattern and its panels printed,
 * and with --out DIR the flat panels and the placed ones written there. */
static cloth_status placed(const cloth__garment *g, void *out_dir, cloth_error *err)
{
    const cloth__pattern *pt = g->pattern;
    const char *dir = out_dir;
    printf("pattern: %s (%s): %d panels, %d seams, edge length %g cm\n",
           pt->name[0] ? pt->name : "-", pt->source, pt->n_panels, pt->n_seams,
           pt->edge_length);
    for (int i = 0; i < pt->n_panels; i++)
        printf("panel %s: %d vertices, %d triangles, smallest angle %.2f deg, area %.2f cm^2, "
               "%d outline segments recovered\n", pt->panels[i].name, g->panels[i].n,
               g->panels[i].n_tris, g->panels[i].min_angle, g->panels[i].area,
               g->panels[i].recovered);
    printf("seams: %d vertex pairs, %d outline segments split to pair them\n", g->n_pairs,
           g->splits);
    if (!dir)
        return CLOTH_OK;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", dir, strerror(errno));
        return CLOTH_EIO;
    }
    cloth_status st = write_panels(g, dir, err);
    if (st == CLOTH_OK)
        st = write_obj(dir, "placed.obj", g->placed, g->n, g->tris, g->n_tris, err);
    return st;
}

/* The welded garment on the avatar of scene, run into out/tryon/. */
static int try_on(const cloth__garment *g, const cloth_scene *scene, const char *out)
{
    cloth_error err;
    cloth_mesh *m;
    if (cloth__garment_cloth(g, scene, &m, &err) != CLOTH_OK)
        return fail(EXIT_BAD_INPUT, err.msg);
    cloth_sim *sim;
    if (cloth_sim_create_with_mesh(scene, m, &sim, &err) != CLOTH_OK)
        return fail(EXIT_BAD_INPUT, err.msg);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tryon", out);
    cloth_summary sum;
    cloth_status st = cloth_run_sim(sim, dir, NULL, &sum, &err);
    if (st == CLOTH_OK) { /* the body as the run ends, for drawing (plots/garments.gp) */
        cloth_avatar *av = cloth_sim_avatar(sim);
        cloth__avatar_skin(av);
        st = write_obj(dir, "body.obj", av->skin, av->body.n_verts, av->body.tris,
                       av->body.n_tris, &err);
    }
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK)
        return fail(EXIT_RUN_FAILED, err.msg);
    static const char *names[] = {"ok", "diverged", "not-converged", "step-failed"};
    printf("try-on (%s, %d substeps of %g s, %ld frames): %s, max stretch %.3g; wrote "
           "%s/series.csv, summary.csv, final.obj, body.obj\n", scene->run.kernel, scene->run.substeps,
           scene->run.dt, sum.frames, names[sum.status], sum.max_stretch, dir);
    if (sum.message[0])
        fprintf(stderr, "cloth: %s\n", sum.message);
    return sum.status == CLOTH_RUN_OK || sum.status == CLOTH_RUN_NOT_CONVERGED ? 0
                                                                             : EXIT_RUN_FAILED;
}

int cloth__cmd_garment(int argc, char **argv)
{
    if (argc < 3 || argv[2][0] == '-')
        return fail(EXIT_BAD_INPUT, "garment: missing the pattern file (see 'cloth help')");
    const char *out = NULL, *kernel = NULL, *scene_path = NULL, *avatar_path = NULL;
    cloth_scene scene, tryon;
    cloth_error err;
    cloth_default_scene(&scene);
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--avatar") == 0 && i + 1 < argc)
            scene_path = avatar_path = argv[++i];
        else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
            scene_path = argv[++i];
        else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc)
            kernel = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--set") != 0 || i + 1 >= argc) {
            char msg[256];
            snprintf(msg, sizeof msg, "garment: unexpected argument '%s' (see 'cloth help')",
                     argv[i]);
            return fail(EXIT_BAD_INPUT, msg);
        } else {
            i++;
        }
    }
    if (scene_path && cloth_scene_load(scene_path, &scene, &err) != CLOTH_OK)
        return fail(EXIT_BAD_INPUT, err.msg);
    char set[64 + CLOTH_NAME_MAX];
    if (kernel) {
        snprintf(set, sizeof set, "run.kernel=%s", kernel);
        if (cloth_scene_set(&scene, set, 0, &err) != CLOTH_OK)
            return fail(EXIT_BAD_INPUT, err.msg);
    }
    if (avatar_path && !scene.avatar.enabled) {
        snprintf(err.msg, sizeof err.msg, "%s: --avatar: the scene has no [avatar] section",
                 avatar_path);
        return fail(EXIT_BAD_INPUT, err.msg);
    }
    if (avatar_path && !out)
        return fail(EXIT_BAD_INPUT, "garment: --avatar needs --out DIR (the try-on's files)");
    tryon = scene; /* the try-on keeps the scene's step and frames */
    cloth_kernel_facts facts;
    cloth_kernel_info(cloth_kernel_find(scene.run.kernel), &facts);
    snprintf(set, sizeof set, "run.substeps=%d", facts.frame_substeps);
    cloth_scene_set(&scene, set, 0, &err);
    cloth_scene_set(&scene, "run.dt=0.016666666666666666", 0, &err);
    if (facts.cond_off) { /* condition numbers are diagnostics: sewing needs none */
        snprintf(set, sizeof set, "%s.%s", facts.name, facts.cond_off);
        cloth_scene_set(&scene, set, 0, &err);
    }
    for (int i = 3, n = 0; i < argc; i++)
        if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
            if (cloth_scene_set(&scene, argv[++i], ++n, &err) != CLOTH_OK ||
                cloth_scene_set(&tryon, argv[i], n, &err) != CLOTH_OK)
                return fail(EXIT_BAD_INPUT, err.msg);
        }

    cloth__garment *g;
    cloth_status st = cloth__garment_make(argv[2], &scene, placed, (void *)out, &g, &err);
    if (st != CLOTH_OK) { /* without g the pattern or its panels were refused */
        int code = g || st == CLOTH_ENOMEM || st == CLOTH_EIO ? EXIT_RUN_FAILED
                                                              : EXIT_BAD_INPUT;
        cloth__garment_free(g);
        return fail(code, err.msg);
    }
    int boundary, interior, bad, code = 0;
    cloth__edge_census(g->welded_tris, g->n_welded_tris, &boundary, &interior, &bad);
    printf("sewing (%s, %d substeps of 1/60 s): %ld frames, %ld steps to weld, largest "
           "gap %.3g mm < %.3g mm, %.3f s\n", scene.run.kernel, scene.run.substeps,
           g->frames, g->steps, 1e3 * g->gap, 1e3 * scene.garment.weld_distance, g->wall_s);
    printf("garment: %d vertices, %d triangles, smallest angle %.2f deg, %d edges "
           "(%d on the border), manifold; sewn edges %+.3f to %+.3f of the pattern's "
           "lengths\n", g->n_welded, g->n_welded_tris, g->min_angle, boundary + interior,
           boundary, g->strain_min, g->strain_max);
    if (out) {
        if (write_obj(out, "sewn.obj", g->welded, g->n_welded, g->welded_tris,
                      g->n_welded_tris, &err) != CLOTH_OK)
            code = fail(EXIT_RUN_FAILED, err.msg);
        else
            printf("wrote %s/panel_*.obj, placed.obj, sewn.obj\n", out);
    }
    if (!code && avatar_path)
        code = try_on(g, &tryon, out);
    cloth__garment_free(g);
    return code;
}
