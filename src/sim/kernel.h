/* Private: the kernel ops table.  Every kernel is one folder under src/kernels/ that
 * defines one `const cloth__kernel` (with its settings struct and key table) and is
 * listed by one line in registry.c; the CLI, the run loop, the
 * tests and the notebooks reach a kernel only through this table.
 *
 * Between frames a viewer (interact.c, live.c) may change:
 *   - the pin set (mesh->pinned, inv_mass, n_pinned): the next frame first rebuilds the
 *     work (create, start with the current state and x_prev = x - h v, destroy the old);
 *   - where a pinned vertex is held (its x0 row, with its x, x_prev and v = 0), every
 *     frame while it is dragged, without a rebuild: a step holds pins at x0 (or leaves
 *     them where they are) and must not keep copies of pinned positions from start;
 *   - the live scene keys of cloth_sim_set (world, spring k, sphere radius, substeps),
 *     which a step reads afresh; the kernel's own keys rebuild the work.
 *
 * A kernel's settings are a struct of its own (in its folder), filled from its key table
 * into the scene's block kernel[slot]; the kernel reads them through cloth__sim_settings
 * (sim.h). */
#ifndef CLOTH_KERNEL_H
#define CLOTH_KERNEL_H

#include "cloth.h"
#include "core/column.h"
#include "core/scene.h"

/* What one kernel step reports; the sim adds them up over a frame. */
typedef struct cloth__step_stats {
    long iterations;            /* passes or Newton iterations of this step          */
    int not_converged;          /* 1 if this step stopped before its tolerance       */
    int regularized;            /* Newton solves that needed Tikhonov                */
    int lin_capped;             /* Newton solves whose PCG stopped at its cap        */
    double cond_max;            /* largest condition number seen (NaN if none)       */
    const char *cond_method;    /* how it was computed ("exact-2norm", ...) or NULL  */
    int stalled;                /* 1 if this step stopped early as stalled (newton): it
                                 * counts in not_converged too                        */
    double visits;              /* spring visits of this step (the bench's unit of
                                 * work); 0: every spring once an iteration (at least
                                 * once), the rule of a kernel that does not count    */
} cloth__step_stats;

/* How a kernel meets contact (sim/contact.h). */
typedef enum cloth__contact_use {
    CLOTH__CONTACT_AFTER = 0,   /* the sim runs the contact stage after each step        */
    CLOTH__CONTACT_IN_STEP,     /* the kernel calls the stage's phases inside its step   */
    CLOTH__CONTACT_OWN          /* the kernel handles contact itself (barriers)          */
} cloth__contact_use;

/* Facts' bits: one per run.self_collision value, one per obstacle. */
#define CLOTH__SELF_BIT(mode) (1u << (unsigned)(mode))
#define CLOTH__SELF_ALL                                                                    \
    (CLOTH__SELF_BIT(CLOTH_SELF_OFF) | CLOTH__SELF_BIT(CLOTH_SELF_PARTICLES) |               \
     CLOTH__SELF_BIT(CLOTH_SELF_PROXIMITY) | CLOTH__SELF_BIT(CLOTH_SELF_ON))
#define CLOTH__OBSTACLE_SPHERE 1u
#define CLOTH__OBSTACLE_FLOOR 2u
#define CLOTH__OBSTACLE_AVATAR 4u
#define CLOTH__OBSTACLE_ALL                                                                \
    (CLOTH__OBSTACLE_SPHERE | CLOTH__OBSTACLE_FLOOR | CLOTH__OBSTACLE_AVATAR)

/* An iterative kernel's log: its file and its columns in file order (core/column.h's
 * CLOTH__LOG_FIELD, _VALUE, _WORD); every generic field of cloth_iter is among them. */
typedef struct cloth__log_columns {
    const char *file;           /* "newton.csv": the run's file of the rows           */
    const cloth__column *columns;
    int n_columns;
} cloth__log_columns;

typedef struct cloth__kernel {
    const char *name;           /* as in run.kernel                                   */
    const char *summary;        /* one line for `cloth list`                          */
    const cloth__key *keys;     /* this kernel's section of scene keys                */
    int n_keys;
    /* Allocates everything the kernel needs for the sim's mesh; *work may stay NULL. */
    cloth_status (*create)(const cloth_sim *sim, void **work, cloth_error *err);
    void (*destroy)(void *work);
    /* Called after create and on every reset, with the state at frame 0. */
    void (*start)(cloth_sim *sim, void *work);
    /* One step of length h from sim->t; moves sim->x and sim->v.  May not allocate.  On
     * failure it says why in err (the sim adds "frame N: KERNEL: " in front). */
    cloth_status (*step)(cloth_sim *sim, void *work, double h, cloth__step_stats *stats,
                         cloth_error *err);
    /* Optional: adds the kernel's own terms to a frame's metrics (barrier energy,
     * self-contact gaps). */
    void (*measure)(const cloth_sim *sim, const void *work, cloth_frame *frame);
    /* Optional: the iteration log's rows of the last frame (columns: log_columns). */
    int (*log)(const void *work, const cloth_iter **rows);
    /* Optional: called at the start of each frame (to clear per-frame logs). */
    void (*begin_frame)(cloth_sim *sim, void *work);

    /* What others need to know about the kernel (cloth_kernel_info, cloth.h), so that
     * no caller compares names.  Keys are of the kernel's own section. */
    int interactive_max;        /* most unknowns (3 x free vertices) it steps at a
                                 * viewer's frame rate; 0 = no limit                  */
    int dense_max;              /* most unknowns its dense solves take; 0 = none      */
    const char *iteration_key;  /* its iteration count ("iterations"), or NULL       */
    const char *stiffness_key;  /* a stiffness of its own that scales with the
                                 * springs' k (verlet's k_relax), or NULL            */
    double stiffness_max;       /* ... kept at or below this when scaled              */
    int reports_cond;           /* 1: frames carry condition numbers                  */
    const char *cond_off;       /* "key=value" that stops computing them, or NULL     */
    int frame_substeps;         /* steps per 1/60 s frame it needs on the example
                                 * cloths (k ~ 500 N/m, 10 g vertices; the bench)     */
    const char *interactive_set; /* "key=value" a viewer applies for its frame rate
                                 * (below interactive_max; measured), or NULL         */

    /* What it honours (docs/architecture.md, "What a kernel must declare").  The sim
     * checks them at creation (cloth__kernel_check) and refuses a scene that asks for
     * more, naming the kernel, the key and what it supports: nothing is ignored. */
    cloth__contact_use contact; /* how it meets obstacles and self-contact (sim/contact.h):
                                 * AFTER (default: the sim runs the contact stage after
                                 * each step), IN_STEP (it calls the stage's phases), OWN
                                 * (its own contact handling; the stage is not built)  */
    unsigned self_modes;        /* the run.self_collision values it honours, bits
                                 * CLOTH__SELF_BIT(mode); 0 = the stage's (all four), or
                                 * off alone with contact = OWN                        */
    unsigned obstacles;         /* the obstacles it honours, CLOTH__OBSTACLE_* bits;
                                 * 0 = the stage's (all), or none with contact = OWN    */
    unsigned avatar_collisions; /* the avatar.collision values it honours, bits
                                 * CLOTH__SELF_BIT-like (1u << value); 0 = all          */
    int needs_triangles;        /* 1: a mesh without triangles (a chain) is refused     */
    cloth_visit_bytes visit_bytes; /* memory a spring visit moves (cloth.h; the bench) */
    const cloth__log_columns *log_columns; /* with log: its file and columns       */
} cloth__kernel;

/* The kernels a sim may use.  The sim layer knows kernels only through this: the caller
 * hands one in (kernels/registry.c has the table of every kernel; a test may build its
 * own). */
typedef struct cloth__registry {
    const cloth__kernel *(*at)(int i);  /* the i-th kernel, NULL past the end             */
    cloth__keyset keys;                 /* their key sections, for the scene layer        */
} cloth__registry;

/* The kernel of reg named name, or NULL. */
const cloth__kernel *cloth__registry_find(const cloth__registry *reg, const char *name);

/* CLOTH_OK when kernel k honours everything scene asks for on a mesh with n_tris
 * triangles; else CLOTH_EINVAL with "WHERE: KEY = VALUE: kernel K does not honour it
 * (it supports ...)" (WHERE from keys: the file and line of the key, or the scene).
 * keys may be NULL. */
cloth_status cloth__kernel_check(const cloth__kernel *k, const cloth_scene *scene,
                                 const cloth__keyset *keys, int n_tris, cloth_error *err);

/* Kernel k's place in reg, which is also the scene's settings block that holds its keys
 * (cloth_scene.kernel[slot]); -1 when reg does not hold k. */
int cloth__registry_slot(const cloth__registry *reg, const cloth__kernel *k);

/* A kernel's settings struct must fit its block of the scene: each kernel's header says
 * CLOTH__SETTINGS_FIT(its struct), and a struct that grows past the block stops the build. */
#define CLOTH__SETTINGS_FIT(type)                                                          \
    _Static_assert(sizeof(type) <= CLOTH_KERNEL_SETTINGS_SIZE,                             \
                   #type " is larger than a scene's settings block (cloth.h)")

#endif
