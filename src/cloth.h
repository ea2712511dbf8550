/*
 * clothbench — cloth simulation kernels for teaching and research.
 *
 * The one public header.  Data flow of a run:
 *
 *   scene file (INI) --cloth_scene_load--> cloth_scene --cloth_sim_create--> cloth_sim
 *   cloth_sim_frame()  advances one frame (run.substeps kernel steps of h = dt/substeps)
 *                      and fills a cloth_frame with the shared metrics
 *   cloth_run()        loops frames into a folder: series.csv, summary.csv, final.obj
 *                      and an iterative kernel's log
 *
 * Conventions: positions and velocities are double arrays of length 3n, interleaved
 * (x[3*i+0..2]); up is +y.  Every function that can fail returns a cloth_status and
 * fills a cloth_error with a message naming file, line and key where there is one.
 * The library never exits, never aborts, and allocates nothing inside a step.
 */
#ifndef CLOTH_H
#define CLOTH_H

#include <stddef.h>
#include <stdio.h>

/* ------------------------------------------------------------------ status */

typedef enum {
    CLOTH_OK = 0,
    CLOTH_EINVAL,   /* a value out of range, an unknown name, a bad call   */
    CLOTH_ENOMEM,   /* an allocation failed                                 */
    CLOTH_EPARSE,   /* a scene or OBJ file could not be read as such        */
    CLOTH_ENUMERIC, /* NaN/inf, a blow-up, a failed factorisation           */
    CLOTH_EIO,      /* a file could not be opened, written or renamed       */
    CLOTH_ENOTIMPL  /* an assignment's student stub: the part is not written */
} cloth_status;

#define CLOTH_MSG_MAX 512

typedef struct cloth_error {
    char msg[CLOTH_MSG_MAX]; /* "FILE:LINE: key: what is wrong", or a plain sentence */
} cloth_error;

/* A constant name for a status ("ok", "invalid argument", ...). */
const char *cloth_status_string(cloth_status s);

/* ------------------------------------------------------------------- scene */

enum { CLOTH_STRUCTURAL = 0, CLOTH_SHEAR = 1, CLOTH_BEND = 2, CLOTH_FAMILIES = 3 };

typedef enum { CLOTH_PLANE_XY = 0, CLOTH_PLANE_XZ = 1 } cloth_plane;

typedef enum {
    CLOTH_PINS_NONE = 0,
    CLOTH_PINS_TOP_ROW,
    CLOTH_PINS_TOP_CORNERS,
    CLOTH_PINS_CORNERS,
    CLOTH_PINS_LIST
} cloth_pin_mode;

typedef enum { CLOTH_MOTION_STATIC = 0, CLOTH_MOTION_ORBIT, CLOTH_MOTION_PATH } cloth_motion;

#define CLOTH_MAX_PINS 256   /* indices in an explicit mesh.pins list */
#define CLOTH_PATH_MAX 256   /* file names kept inside a scene        */
#define CLOTH_NAME_MAX 32    /* kernel names                          */

/* mesh.pins_follow: whether the scene's pins move with the avatar (docs/avatar.md). */
typedef enum {
    CLOTH_PINS_FOLLOW_AUTO = 0, /* body when every pin starts near the skin, else world */
    CLOTH_PINS_FOLLOW_BODY = 1, /* each pin skinned to the body point nearest it       */
    CLOTH_PINS_FOLLOW_WORLD = 2 /* fixed in world space                                */
} cloth_pins_follow;

typedef struct cloth_mesh_def {
    int nx, ny;                 /* grid size, >= 1 each; 1 makes a chain              */
    double spacing;             /* rest distance between grid neighbours (m)          */
    cloth_plane plane;          /* xy hangs, xz lies                                  */
    double origin[3];           /* position of vertex (0,0)                           */
    double prestretch;          /* initial positions use spacing*(1+prestretch)       */
    unsigned families;          /* bit (1 << family) for each spring family built     */
    cloth_pin_mode pins;        /* which vertices are pinned                          */
    int n_pin_list;             /* with CLOTH_PINS_LIST: how many indices             */
    int pin_list[CLOTH_MAX_PINS];
    char obj[CLOTH_PATH_MAX];   /* an OBJ file to load instead of the grid, or ""     */
    int layers;                 /* grid copies stacked along the plane's normal, >= 1 */
    double layer_gap;           /* distance between neighbouring layers (m)           */
    double layer_shift[3];      /* in-plane shift of each layer from the one below (m) */
    int layer_shift_dims;       /* 2: along the plane's two axes; 3: a world vector   */
    double jitter;              /* a layer's height moves by U[-jitter, jitter] (m)   */
    char garment[CLOTH_PATH_MAX]; /* a sewing pattern (JSON) sewn into the mesh, or "" */
    int pins_follow;            /* the pins with an [avatar]: CLOTH_PINS_FOLLOW_*     */
} cloth_mesh_def;

/* [garment]: sewing a pattern (docs/garments.md). */
typedef struct cloth_garment_def {
    double weld_distance;       /* seams are welded once every pair is closer (m)     */
    int max_frames;             /* sewing frames at most                              */
    double sew_damping;         /* air damping c (N s/m) while sewing: seams settle   */
    int sew_on_body;            /* 1: sew round the avatar (sew_on = body); 0: in air */
} cloth_garment_def;

typedef struct cloth_material_def {
    double k[CLOTH_FAMILIES];   /* spring stiffness per family (N/m)                  */
    double vertex_mass;         /* uniform mass per vertex (kg), used if density == 0 */
    double density;             /* area density (kg/m^2); > 0 lumps mass by area      */
    double spring_damping;      /* c_d of F = -c_d ((v_i - v_j).u) u  (N s/m)         */
    double thickness;           /* cloth-cloth contact distance (m)                   */
    double self_friction;       /* in [0, 1]: relative velocity a colliding pair loses */
} cloth_material_def;

typedef struct cloth_world_def {
    double gravity[3];          /* m/s^2                                              */
    double wind[3];             /* mean wind velocity (m/s)                           */
    double turbulence;          /* relative amplitude t of w (1 + t n(t,x))           */
    double air_density;         /* rho_air (kg/m^3) of the triangle drag force        */
    double drag_coefficient;    /* C_d of the triangle drag force                     */
    double air_damping;         /* c of F = -c v per vertex (N s/m)                   */
} cloth_world_def;

typedef struct cloth_sphere_def {
    int enabled;                /* set when the scene has a [sphere] section          */
    double center[3];           /* centre (the orbit's centre with motion = orbit)    */
    double radius;              /* m                                                  */
    double offset;              /* skin thickness added to the radius (m)             */
    cloth_motion motion;        /* static, orbit A T, path x0 y0 z0 x1 y1 z1 T        */
    double amplitude;           /* orbit radius A (m)                                 */
    double period;              /* orbit or path period T (s)                         */
    double path[6];             /* path end points                                    */
    double spin;                /* rad/s about the world y axis through the centre (a
                                 * point at +x moves to -z): friction's surface speed */
} cloth_sphere_def;

typedef struct cloth_floor_def {
    int enabled;                /* set when the scene has a [plane] section           */
    double height;              /* the floor is y = height                            */
    double offset;              /* skin thickness above the floor (m)                 */
} cloth_floor_def;

/* avatar.collision: how the kernels find the body (docs/avatar.md). */
typedef enum {
    CLOTH_AVATAR_SDF = 0,       /* the rest-pose field through the back-transform     */
    CLOTH_AVATAR_CAPSULES = 1,  /* the posed capsules' exact distance (comparison)    */
    CLOTH_AVATAR_ELLIPSOIDS = 2 /* ellipsoid bounds per bone, point-triangle inside   */
} cloth_avatar_collision;

/* avatar.clip_end: what the body does after the clip's last frame (docs/avatar.md). */
typedef enum {
    CLOTH_CLIP_END_AUTO = 0,    /* loop for a clip that loops, else hold              */
    CLOTH_CLIP_END_HOLD = 1,    /* keep the last pose                                 */
    CLOTH_CLIP_END_LOOP = 2,    /* wrap to the first frame                            */
    CLOTH_CLIP_END_BLEND = 3    /* back to the first pose over blend_time, then again */
} cloth_clip_end;

typedef struct cloth_avatar_def {
    int enabled;                /* set when the scene has an [avatar] section         */
    char model[CLOTH_PATH_MAX]; /* "builtin" (the mannequin) or an OBJ surface file   */
    char skeleton[CLOTH_PATH_MAX]; /* the OBJ body's skeleton (a BVH hierarchy), or "" */
    double scale;               /* 1: the mannequin's 1.75 m (an OBJ body: its units) */
    char motion[CLOTH_PATH_MAX];/* a BVH clip (relative to the scene), "" for rest    */
    char pose[CLOTH_PATH_MAX];  /* t | a | arms_raised | a one-frame BVH file         */
    double offset;              /* skin thickness: vertices are kept this far out (m) */
    int sdf_resolution;         /* field cells along the body's box's longest side    */
    cloth_avatar_collision collision;
    double ik_max_step;         /* largest move of an IK end effector per call (m)    */
    char joint_map[CLOTH_PATH_MAX]; /* clip joint, body joint a line; "": built in   */
    int keep_root_offset;       /* 1: the clip's first horizontal root position kept  */
    double motion_scale;        /* body metres a clip unit; 0: from the hip heights   */
    double blend_in;            /* s from the rest pose to the clip's first; < 0: auto */
    cloth_clip_end clip_end;    /* what follows the clip's last frame                 */
    double blend_time;          /* clip_end = blend: s from the last pose to the first */
    double max_skin_step;       /* the guard's skin move a substep (m); < 0: offset   */
    int strict;                 /* 1: the guard fails the run instead of warning      */
} cloth_avatar_def;

/* run.self_collision: what cloth-cloth contact a kernel handles (docs/contact.md). */
typedef enum {
    CLOTH_SELF_OFF = 0,         /* none                                               */
    CLOTH_SELF_ON = 1,          /* no crossing: Bridson et al. 2002, or IPC's own     */
    CLOTH_SELF_PROXIMITY = 2,   /* vertex and vertex-triangle pushes, no CCD          */
    CLOTH_SELF_PARTICLES = 3    /* vertex pairs kept material.thickness apart         */
} cloth_self_collision;

typedef struct cloth_run_def {
    char kernel[CLOTH_NAME_MAX];/* a kernel of the table (cloth list)                */
    double dt;                  /* frame length (s)                                   */
    int substeps;               /* kernel steps per frame, h = dt / substeps          */
    int frames;                 /* frames to run after frame 0                        */
    double blowup_limit;        /* |x| beyond this counts as diverged (m)             */
    unsigned long seed;         /* seeds the wind turbulence                          */
    cloth_self_collision self_collision; /* off, on, proximity or particles             */
    int collision_passes;       /* CCD impulse passes of the robust stage at most     */
    int threads;                /* threads of the coloured loops (results do not depend
                                 * on it)                                             */
} cloth_run_def;

/* Where a key got its value: the file (or "--set") and the line (or argument number). */
typedef struct cloth_key_origin {
    unsigned char from_set;     /* 0: the scene file, 1: a --set override             */
    int line;                   /* file line, or the --set argument number (1-based)  */
} cloth_key_origin;

#define CLOTH_MAX_KEYS 256     /* keys of the common table and every kernel's         */
#define CLOTH_MAX_KERNELS 16   /* kernels a table may hold (settings blocks)          */
#define CLOTH_KERNEL_SETTINGS_SIZE 512 /* bytes of one kernel's settings at most      */

/* One kernel's settings, opaque: its kernel fills them from its key table, callers use
 * key names (cloth_scene_set, _get); a fixed block keeps the scene a plain value. */
typedef union cloth_kernel_settings {
    unsigned char bytes[CLOTH_KERNEL_SETTINGS_SIZE];
    double align_double;        /* the blocks are aligned for any field a kernel keeps */
    long long align_long;
    void *align_pointer;
} cloth_kernel_settings;

typedef struct cloth_scene {
    cloth_mesh_def mesh;
    cloth_material_def material;
    cloth_world_def world;
    cloth_sphere_def sphere;
    cloth_floor_def floor;      /* the [plane] section                                */
    cloth_avatar_def avatar;    /* the [avatar] section                               */
    cloth_run_def run;
    cloth_garment_def garment;
    cloth_kernel_settings kernel[CLOTH_MAX_KERNELS]; /* block i: the settings of the
                                 * kernel table's i-th kernel, defaulted from its keys */
    char source[CLOTH_PATH_MAX];            /* the scene file's name, or "<defaults>" */
    cloth_key_origin origin[CLOTH_MAX_KEYS];/* per key (index of the key table)       */
} cloth_scene;

/* sizeof(cloth_scene), for bindings that allocate scenes themselves (the notebooks). */
size_t cloth_scene_size(void);

/* Fills *scene with every key's default (as `cloth list` prints them). */
void cloth_default_scene(cloth_scene *scene);

/* Defaults, then the INI file at path.  On error the message is "FILE:LINE: key: why". */
cloth_status cloth_scene_load(const char *path, cloth_scene *scene, cloth_error *err);

/* The same from text in memory; name stands for the file in messages. */
cloth_status cloth_scene_parse(const char *text, const char *name, cloth_scene *scene,
                               cloth_error *err);

/* Applies one "section.key=value" override; arg is its 1-based position on the command
 * line, used in messages ("--set:ARG: key: why"). */
cloth_status cloth_scene_set(cloth_scene *scene, const char *assignment, int arg,
                             cloth_error *err);

/* Prints every kernel-independent and kernel key with its default and meaning. */
void cloth_scene_print_keys(FILE *out, const char *section);

/* -------------------------------------------------------------------- mesh */

typedef struct cloth_spring {
    int a, b;                   /* vertex indices                                     */
    int family;                 /* CLOTH_STRUCTURAL, CLOTH_SHEAR or CLOTH_BEND        */
    double rest;                /* rest length l0 (m)                                 */
    double k;                   /* stiffness (N/m)                                    */
} cloth_spring;

typedef struct cloth_mesh {
    int n;                      /* vertices                                           */
    double *rest;               /* 3n rest positions                                  */
    double *x0;                 /* 3n initial positions (rest with prestretch)        */
    double *mass;               /* n masses (kg)                                      */
    double *inv_mass;           /* n inverse masses, 0 for pinned vertices            */
    unsigned char *pinned;      /* n flags                                            */
    int n_pinned;
    int n_springs;              /* springs, grouped by family in family order         */
    cloth_spring *springs;
    int family_count[CLOTH_FAMILIES];
    int n_tris;                 /* triangles, 3 indices each                          */
    int *tris;
    int n_hinges;               /* hinges: shared edge (e0, e1), opposite (o0, o1)    */
    int *hinges;                /* 4 indices each: e0, e1, o0, o1                     */
    int nx, ny;                 /* grid size, or 0 for an OBJ mesh                    */
    double rest_diag;           /* L: diagonal of the rest bounding box (m)           */
    double area;                /* rest area of all triangles (m^2)                   */
    int layers;                 /* grid layers (1 for OBJ): l has vertices from l*nx*ny */
} cloth_mesh;

/* Builds the grid (or loads mesh.obj) with springs, triangles, hinges, masses and pins. */
cloth_status cloth_mesh_create(const cloth_scene *scene, cloth_mesh **out, cloth_error *err);
void cloth_mesh_destroy(cloth_mesh *mesh);

/* Writes positions x (3n) with the mesh's faces as OBJ ("%.17g"); atomically. */
cloth_status cloth_mesh_write_obj(const cloth_mesh *mesh, const double *x, const char *path,
                                  cloth_error *err);

/* Reads the v and f lines of an OBJ file (polygons are fanned into triangles).
 * On success the caller frees *x and *tris. */
cloth_status cloth_obj_read(const char *path, double **x, int *n, int **tris, int *n_tris,
                            cloth_error *err);

/* --------------------------------------------------------------- simulation */

typedef struct cloth_frame {
    long frame;                 /* 0 = the initial state                              */
    double time;                /* s                                                  */
    double kinetic;             /* sum 1/2 m |v|^2                                    */
    double gravity;             /* sum -m g.x                                         */
    double elastic;             /* sum 1/2 k (l - l0)^2 over all springs              */
    double barrier;             /* sum kappa psi (a kernel's barriers), else 0        */
    double total;               /* kinetic + gravity + elastic + barrier              */
    double drift;               /* (total - total_0) / E_scale                        */
    double stretch_max;         /* max l/l0 - 1 over structural and shear springs     */
    double stretch_mean;        /* mean of the same                                   */
    double stretch_sigma_max;   /* max sigma1 - 1 of the triangles' 3x2 gradients     */
    double min_gap;             /* smallest obstacle (or self-contact) gap            */
    int has_gap;                /* 0 when there is nothing to have a gap to           */
    int penetrations;           /* vertices with a negative obstacle gap              */
    long intersections;         /* edge-triangle crossings of the cloth (-1: NaN)     */
    long tunnelled;             /* pairs whose motion since the last frame met (CCD)  */
    int collision_passes;       /* most CCD passes of the robust stage in a step      */
    long impact_zones;          /* ... rigid impact zones it formed, over the frame   */
    double collide_ms;          /* ... its wall time in the frame (ms)                */
    long iterations;            /* kernel work this frame (passes or iterations)      */
    double cond_max;            /* largest condition number of a solve this frame     */
    int has_cond;               /* 0 when no condition number was computed            */
    char cond_method[16];       /* how: "exact-2norm" or "estimate-1norm"; "" if none  */
    int not_converged;          /* kernel steps this frame that did not converge      */
    int stalled;                /* of those, steps that stopped early as stalled      */
    int regularized;            /* solves that needed Tikhonov this frame             */
    int lin_capped;             /* solves whose PCG stopped at its cap                */
    double wall_ms;             /* wall time of the frame's kernel work               */
    double body_depth;          /* [avatar]: largest avatar.offset - distance to body */
    double body_ms;             /* [avatar]: wall time of the body's collision stage  */
} cloth_frame; /* each field's full meaning: cloth_field_meaning, docs/outputs.md */

/* One iteration of an iterative kernel, a row of its log: these fields, and the numbers
 * and words its log table (CLOTH_TABLE_LOG + the kernel's index) names. */
#define CLOTH_LOG_VALUES 12
#define CLOTH_LOG_WORDS 2
#define CLOTH_LOG_WORD_MAX 16
typedef struct cloth_iter {
    long frame;                 /* frame of the step                                  */
    int iter;                   /* iteration within the frame (substeps continue it)  */
    double energy;              /* the objective the iteration lowers, before it      */
    double grad_norm;           /* its residual, |grad E|_inf                         */
    double step_norm;           /* |change of x|_inf the iteration made               */
    int lin_iters;              /* iterations of an inner linear solve (0: direct)    */
    char stop[12];              /* a step's last row: converged, max_iters, stalled   */
    double value[CLOTH_LOG_VALUES];               /* the kernel's numbers (NaN: none) */
    char word[CLOTH_LOG_WORDS][CLOTH_LOG_WORD_MAX]; /* the kernel's words             */
} cloth_iter;

typedef struct cloth_sim cloth_sim;

/* Builds mesh, state and kernel work for a scene (copied); all a run allocates. */
cloth_status cloth_sim_create(const cloth_scene *scene, cloth_sim **out, cloth_error *err);
void cloth_sim_destroy(cloth_sim *sim);

/* The same for a mesh the caller made, which the sim owns from here on (destroyed with
 * it, or at once on failure); the scene's mesh keys are not read. */
cloth_status cloth_sim_create_with_mesh(const cloth_scene *scene, cloth_mesh *mesh,
                                        cloth_sim **out, cloth_error *err);

/* Back to the initial state (frame 0). */
void cloth_sim_reset(cloth_sim *sim);

/* Advances one frame and measures it.  CLOTH_ENUMERIC (with a message) when the state
 * became non-finite or left run.blowup_limit: the run has diverged; or the kernel's status
 * when a step failed, with its reason ("SCENE: frame N: KERNEL: why"). */
cloth_status cloth_sim_frame(cloth_sim *sim, cloth_frame *out, cloth_error *err);

/* Metrics of the current state, without stepping (frame 0 after create). */
void cloth_sim_measure(const cloth_sim *sim, cloth_frame *out);

/* The state, 3n doubles each, owned by the sim; a caller may write them between frames. */
double *cloth_sim_positions(cloth_sim *sim);
double *cloth_sim_velocities(cloth_sim *sim);
const cloth_mesh *cloth_sim_mesh(const cloth_sim *sim);
const cloth_scene *cloth_sim_scene(const cloth_sim *sim);
double cloth_sim_time(const cloth_sim *sim);

/* omega_max^2 = largest eigenvalue of M^-1/2 K M^-1/2 over the free vertices, K the
 * springs' Hessian at the initial positions; explicit schemes are stable for
 * h < 2 / omega_max.  Dense (LAPACKE): at most 6000 unknowns. */
cloth_status cloth_sim_omega_max(const cloth_sim *sim, double *omega_max, cloth_error *err);

/* The iteration log of the last frame: its rows (0 for a kernel without a log). */
int cloth_sim_log(const cloth_sim *sim, const cloth_iter **rows);

/* -------------------------------------------------------------- interaction */
/* Picking, dragging, pins and live changes for a viewer (a web cloth demo, the mass-spring
 * cloth paper), between frames; only a rebuild of the kernel's work allocates.  A pinned
 * vertex has inverse mass 0 and is held at its mesh->x0 row; these change pinned,
 * inv_mass, n_pinned and x0, and cloth_sim_reset puts back the scene's pins and x0. */

/* The mass-spring cloth paper's picking: every vertex of x (n of them) is a sphere of
 * radius; the vertex whose sphere the ray origin + t dir, t >= 0, enters first, or -1 (a
 * miss, dir zero or not finite).  *t_hit (may be NULL): the distance to the entry (m). */
int cloth_pick_ray(const double *x, int n, const double origin[3], const double dir[3],
                   double radius, double *t_hit);

/* The paper's drag mapping: p1 grabbed from o1 along the unit ray dir1, dist = |p1 - o1|,
 * the mouse now on the unit ray dir2 from o2: p2 = p1 + (o2 - o1) + (dir2 - dir1) dist. */
void cloth_drag_point(const double p1[3], const double o1[3], const double dir1[3],
                      const double o2[3], const double dir2[3], double dist, double p2[3]);

/* Picks the vertex under the ray (cloth_pick_ray) and holds it as a temporary pin where
 * it is (a previous grab released); *vertex: it, or -1 on a miss (still CLOTH_OK).
 * CLOTH_EINVAL for a non-finite ray or radius <= 0. */
cloth_status cloth_sim_grab(cloth_sim *sim, const double origin[3], const double dir[3],
                            double radius, int *vertex, cloth_error *err);

/* Moves the grabbed vertex to cloth_drag_point(grab point, grab ray, this ray), at rest;
 * CLOTH_EINVAL when nothing is grabbed or the ray is not finite. */
cloth_status cloth_sim_drag(cloth_sim *sim, const double origin[3], const double dir[3],
                            cloth_error *err);

/* Lets the grabbed vertex go, back to the pin state it had before (if any grab). */
void cloth_sim_release(cloth_sim *sim);

/* The grabbed vertex, or -1. */
int cloth_sim_grabbed(const cloth_sim *sim);

/* on = 1 pins vertex where it is now (zero velocity); on = 0 frees it.  Releases a grab
 * of that vertex first.  CLOTH_EINVAL for an index out of range. */
cloth_status cloth_sim_pin(cloth_sim *sim, int vertex, int on, cloth_error *err);

/* Changes one key of a running sim, as --set ("world.wind=1 0 2"): world.*, material.k_*
 * and spring_damping, sphere.radius and offset, run.substeps, run.kernel (state kept) and
 * a kernel's own keys (work rebuilt); gravity, a stiffness or the kernel restart energy
 * drift.  Any other key or a refused value: CLOTH_EINVAL "key: why", the sim unchanged. */
cloth_status cloth_sim_set(cloth_sim *sim, const char *assignment, cloth_error *err);

/* 1 and the sphere's centre now and radius when the scene has a sphere, else 0. */
int cloth_sim_sphere(const cloth_sim *sim, double center[3], double *radius);

/* ----------------------------------------------------------------- avatar */

typedef struct cloth_avatar cloth_avatar;

/* The scene's avatar ([avatar] section), or NULL. */
cloth_avatar *cloth_sim_avatar(cloth_sim *sim);

#define CLOTH_IK_TOL 1e-3        /* an IK target within this is reached (m)          */
#define CLOTH_IK_MAX_SWEEPS 200  /* CCD sweeps per call at most                     */

typedef struct cloth_ik_result {
    int reached;                /* the effector is within CLOTH_IK_TOL of the target  */
    int limited;                /* went ik_max_step towards a farther target          */
    int unreachable;            /* not reachable: the pose is the closest CCD found   */
    int iterations;             /* CCD sweeps used                                    */
    double distance;            /* effector to target afterwards (m)                  */
    double moved;               /* how far the effector moved (<= ik_max_step) (m)    */
    double effector[3];         /* where it is now                                    */
} cloth_ik_result;

/* Cyclic coordinate descent: turns the `chain` joints above joint ("l_wrist") within their
 * limits towards target, at most avatar.ik_max_step a call; the pose stays until reset.
 * CLOTH_EINVAL for an unknown joint (a target out of reach: res->unreachable). */
cloth_status cloth_avatar_ik(cloth_avatar *avatar, const char *joint, const double target[3],
                             int chain, cloth_ik_result *res, cloth_error *err);

/* The avatar's drawing surface: its vertex count, its triangles (3 indices each). */
int cloth_avatar_surface_size(const cloth_avatar *avatar, const int **tris, int *n_tris);

/* The surface's vertices skinned to the pose now, 3 doubles each; allocates nothing. */
void cloth_avatar_surface(cloth_avatar *avatar, double *out);

/* The world position of joint in the pose now; CLOTH_EINVAL for an unknown joint. */
cloth_status cloth_avatar_joint(const cloth_avatar *avatar, const char *joint, double pos[3],
                                cloth_error *err);

/* Scene key "section.key" as a scene file writes it ("%.17g"); CLOTH_EINVAL for an
 * unknown key or one not written back (mesh.springs, pins, layer_shift, sphere.motion). */
cloth_status cloth_scene_get(const cloth_scene *scene, const char *key, char *value,
                             size_t size, cloth_error *err);

/* --------------------------------------------------------- contact queries */
/* Continuous collision detection of a point p and a triangle (a, b, c), or of edges
 * (a, b) and (c, d), each vertex moving from x0 (t = 0) to x1 (t = 1) on a line; d(t) is
 * their distance.  Additive CCD (Li, Kaufman and Jiang 2021, "Codimensional Incremental
 * Potential Contact"), conservative: 1 (a hit) when d may come within dmin >= 0, *toi a
 * time up to which d provably stays above dmin (0 if it starts within); 0 when it stays
 * above on [0, 1], *toi = 1.  A miss counts as a hit only within dmin + 1e-3 (d(0) - dmin)
 * or after 10^6 distance evaluations.  -1, *toi = 0, for a bad dmin or coordinate.  toi
 * may be NULL; allocates nothing.  A line search keeping d > eta d(0) passes it as
 * dmin = eta d(0). */

/* The point p against the triangle (a, b, c). */
int cloth_ccd_point_triangle(const double p0[3], const double a0[3], const double b0[3],
                             const double c0[3], const double p1[3], const double a1[3],
                             const double b1[3], const double c1[3], double dmin,
                             double *toi);

/* The edge (a, b) against the edge (c, d). */
int cloth_ccd_edge_edge(const double a0[3], const double b0[3], const double c0[3],
                        const double d0[3], const double a1[3], const double b1[3],
                        const double c1[3], const double d1[3], double dmin, double *toi);

/* ------------------------------------------------------------------- kernels */

int cloth_kernel_count(void);
const char *cloth_kernel_name(int i);      /* NULL past the end */
const char *cloth_kernel_summary(int i);

/* The index of the kernel named name, or -1. */
int cloth_kernel_find(const char *name);

/* What a spring visit (the bench's unit of work: a spring's force, projection or share of
 * a solve) moves to and from memory out of cache, as spring + vertex / (springs per
 * vertex), in the reference order and in KERNEL.order = coloured (kernels/coloured.h's
 * arrays); all 0: not counted (the bench prints nan). */
typedef struct cloth_visit_bytes {
    double spring, vertex, coloured_spring, coloured_vertex;
} cloth_visit_bytes;

/* What a caller needs to know about a kernel, so that none compares names.  Keys are of
 * the kernel's own section: write them as "NAME.KEY". */
typedef struct cloth_kernel_facts {
    const char *name;           /* as in run.kernel                                   */
    const char *summary;        /* one line                                           */
    int interactive_max;        /* most unknowns it steps at a viewer's rate; 0: any  */
    int dense_max;              /* most unknowns its dense solves take; 0: none       */
    const char *iteration_key;  /* the key of its iteration count, or NULL            */
    const char *stiffness_key;  /* its own stiffness a viewer scales with k, or NULL  */
    double stiffness_max;       /* ... keeping it at or below this                    */
    int reports_cond;           /* 1: its frames carry condition numbers (has_cond)   */
    const char *cond_off;       /* "KEY=VALUE" that stops computing them, or NULL     */
    int frame_substeps;         /* steps a 1/60 s frame needs (k ~ 500 N/m, 10 g)     */
    const char *interactive_set; /* "KEY=VALUE" a viewer applies, or NULL            */
    cloth_visit_bytes visit_bytes; /* memory a spring visit moves (the bench)         */
} cloth_kernel_facts;

/* Fills *out with the facts of kernel i (0 <= i < cloth_kernel_count()); CLOTH_EINVAL,
 * *out untouched, past the end.  The strings are the library's own constants. */
cloth_status cloth_kernel_info(int i, cloth_kernel_facts *out);

/* -------------------------------------------------------------------- runs */

typedef enum {
    CLOTH_RUN_OK = 0,
    CLOTH_RUN_DIVERGED,         /* the state blew up (run.blowup_limit, NaN)          */
    CLOTH_RUN_NOT_CONVERGED,    /* finished, but some kernel steps did not converge   */
    CLOTH_RUN_STEP_FAILED       /* a kernel step failed (a factorisation, NaN energy)  */
} cloth_run_status;

typedef struct cloth_summary {
    char kernel[CLOTH_NAME_MAX];/* the settings of the run ...                        */
    int vertices, springs;
    double dt;
    int substeps;
    cloth_run_status status;    /* ... and its results                                */
    long frames;                /* frames completed after frame 0                     */
    long fail_frame;            /* frame that diverged or failed, or -1               */
    double max_abs_drift;       /* max |drift|                                        */
    double final_drift;
    double max_stretch;
    double min_gap;             /* NaN when no frame had a gap                        */
    int max_penetrations;
    long max_intersections;     /* largest intersections of a frame                   */
    long max_tunnelled;         /* largest tunnelled of a frame                       */
    int max_collision_passes;   /* largest collision_passes of a frame                */
    long max_impact_zones;      /* largest impact_zones of a frame                    */
    long total_iterations;
    long not_converged;         /* kernel steps that did not converge                 */
    long stalled;               /* of those, steps that stopped early as stalled      */
    long regularized;           /* solves that needed Tikhonov                        */
    long lin_capped;            /* solves whose PCG stopped at its cap                */
    double cond_mean, cond_max; /* over frames with a condition number (else NaN)     */
    char cond_method[16];       /* exact-2norm, estimate-1norm, mixed, or off         */
    double wall_ms;             /* kernel time of all frames                          */
    char message[CLOTH_MSG_MAX];/* why the run stopped early ("SCENE: frame N: ..."), or "" */
} cloth_summary;

const char *cloth_run_status_string(cloth_run_status s);

/* Runs the scene into out_dir (made if missing): series.csv, summary.csv, final.obj and
 * the kernel's log (cloth_table_file), each as NAME.part, flushed every frame, renamed at
 * the end; progress (or NULL): a line per 10 % of the frames.  CLOTH_OK when the run
 * finished (its status, an early stop's reason in *summary); else an error (input, I/O). */
cloth_status cloth_run(const cloth_scene *scene, const char *out_dir, FILE *progress,
                       cloth_summary *summary, cloth_error *err);

/* The same for a sim made by the caller (from its current state, usually frame 0);
 * errors are then only about the output files (CLOTH_EIO). */
cloth_status cloth_run_sim(cloth_sim *sim, const char *out_dir, FILE *progress,
                           cloth_summary *summary, cloth_error *err);

/* Marks out_dir as a finished run of a sweep: out_dir/run.done (via a rename) holding
 * "id ID" and "message MESSAGE".  Call it after cloth_run(_sim) returned CLOTH_OK; a sweep
 * takes a folder as its run's result only when run.done names that id. */
cloth_status cloth_run_mark_done(const char *out_dir, const char *id,
                                 const cloth_summary *summary, cloth_error *err);

/* ---------------------------------------------------------- record and replay */
/* A recording: positions per frame as a PC2 point cache (Blender's Mesh Cache) beside the
 * topology as OBJ (cloth.pc2/.obj; body.pc2/.obj with an [avatar]).  Inputs (cloth_input)
 * are what a viewer does between frames (cloth_sim_input); a session writes them to
 * events.jsonl (each with the frames stepped before it) and series.csv, and a run with
 * def.events re-simulates them headless into the same series.csv, apart from wall_ms. */

/* The header of a point cache. */
typedef struct cloth_pc2_info {
    int points;                 /* vertices a sample holds                            */
    int samples;                /* samples the file holds (and its header counts)     */
    float start_frame;          /* frame of sample 0 (0 for our runs)                 */
    float sample_rate;          /* frames between two samples (1 for our runs)        */
} cloth_pc2_info;

typedef struct cloth_pc2_writer cloth_pc2_writer;
typedef struct cloth_pc2 cloth_pc2;

/* Starts path.part with 0 samples; CLOTH_EINVAL for points < 1 or a rate not finite and
 * > 0, CLOTH_EIO when it cannot be written. */
cloth_status cloth_pc2_create(const char *path, int points, float start_frame,
                              float sample_rate, cloth_pc2_writer **out, cloth_error *err);
/* Appends x (3 points doubles, as float32), then counts it in the header: the file never
 * claims a sample it does not hold whole.  Allocates nothing. */
cloth_status cloth_pc2_append(cloth_pc2_writer *w, const double *x, cloth_error *err);
int cloth_pc2_writer_samples(const cloth_pc2_writer *w);
/* Closes and renames path.part to path; frees w either way. */
cloth_status cloth_pc2_finish(cloth_pc2_writer *w, cloth_error *err);
/* Closes without renaming (path.part stays, a readable cache of the samples so far). */
void cloth_pc2_writer_destroy(cloth_pc2_writer *w);

/* Opens a point cache; CLOTH_EPARSE naming the file when it is not PC2 version 1 or holds
 * fewer bytes than its header promises, CLOTH_EIO when it cannot be read. */
cloth_status cloth_pc2_open(const char *path, cloth_pc2 **out, cloth_error *err);
void cloth_pc2_header(const cloth_pc2 *r, cloth_pc2_info *info);
/* Sample k (0 <= k < samples) into out, 3 points floats exactly as stored. */
cloth_status cloth_pc2_sample(cloth_pc2 *r, int k, float *out, cloth_error *err);
void cloth_pc2_close(cloth_pc2 *r);

typedef enum {
    CLOTH_INPUT_SET = 0,        /* cloth_sim_set(assignment)                          */
    CLOTH_INPUT_GRAB,           /* cloth_sim_grab(origin, dir, radius)                */
    CLOTH_INPUT_DRAG,           /* cloth_sim_drag(origin, dir)                        */
    CLOTH_INPUT_RELEASE,        /* cloth_sim_release                                  */
    CLOTH_INPUT_PIN,            /* cloth_sim_pin(vertex, on)                          */
    CLOTH_INPUT_RESET,          /* cloth_sim_reset                                    */
    CLOTH_INPUT_IK              /* cloth_avatar_ik(joint, target, chain)              */
} cloth_input_kind;

#define CLOTH_ASSIGN_MAX 256    /* longest "section.key=value" an input carries       */

/* One input; only the fields of its kind are read. */
typedef struct cloth_input {
    cloth_input_kind kind;
    long frame;                 /* frames stepped (or tried) before it came           */
    int line;                   /* its line in events.jsonl, or 0                     */
    char assignment[CLOTH_ASSIGN_MAX]; /* SET                                         */
    double origin[3], dir[3];   /* GRAB, DRAG: the camera ray                         */
    double radius;              /* GRAB: the pick radius (m)                          */
    int vertex, on;             /* PIN                                                */
    char joint[CLOTH_NAME_MAX]; /* IK: the end effector ("l_wrist")                   */
    double target[3];           /* IK: where it is pulled (m)                         */
    int chain;                  /* IK: joints above it that turn                      */
} cloth_input;

/* Applies in through the function its kind names; *vertex (or NULL): a GRAB's vertex,
 * else -1.  Errors are those functions' (IK without an avatar: CLOTH_EINVAL). */
cloth_status cloth_sim_input(cloth_sim *sim, const cloth_input *in, int *vertex,
                             cloth_error *err);

typedef struct cloth_session cloth_session;

/* Starts recording sim (made from scene_path and the overrides sets, which a replay
 * loads again) into dir: events.jsonl and series.csv (with the current state's row), as
 * .part files flushed at every line and renamed by cloth_session_close. */
cloth_status cloth_session_open(cloth_sim *sim, const char *dir, const char *scene_path,
                                const char *const *sets, int n_sets, cloth_session **out,
                                cloth_error *err);
/* cloth_sim_input, then its line in events.jsonl; CLOTH_EIO (input applied) on a write. */
cloth_status cloth_session_input(cloth_session *s, const cloth_input *in, int *vertex,
                                 cloth_error *err);
/* cloth_sim_frame, counted, and its row in series.csv if it succeeds; or CLOTH_EIO. */
cloth_status cloth_session_frame(cloth_session *s, cloth_frame *out, cloth_error *err);
/* Ends events.jsonl with the frame count, closes and renames both files, frees s. */
cloth_status cloth_session_close(cloth_session *s, cloth_error *err);

typedef struct cloth_events cloth_events;

/* Reads an events.jsonl; CLOTH_EPARSE "FILE:LINE: why" for a line a session does not
 * write, frames that go back, or a missing header. */
cloth_status cloth_events_load(const char *path, cloth_events **out, cloth_error *err);
void cloth_events_destroy(cloth_events *ev);
/* The file it was read from (for messages). */
const char *cloth_events_path(const cloth_events *ev);
/* The scene file and overrides the session started from. */
const char *cloth_events_scene(const cloth_events *ev);
int cloth_events_sets(const cloth_events *ev);
const char *cloth_events_set(const cloth_events *ev, int i);
/* The inputs in order, and the frames the session stepped (the last input's if cut short). */
int cloth_events_count(const cloth_events *ev);
const cloth_input *cloth_events_input(const cloth_events *ev, int i);
long cloth_events_frames(const cloth_events *ev);

/* What a run writes besides its tables, and what it applies. */
typedef struct cloth_output_def {
    FILE *progress;             /* a line per 10 % of the frames, or NULL (default)   */
    int record;                 /* 1: cloth.pc2/.obj (and body's); default 0          */
    const cloth_events *events; /* inputs at their frames, and their frame count in
                                 * place of run.frames; NULL (default)                */
} cloth_output_def;

void cloth_default_output_def(cloth_output_def *def);

/* cloth_run_sim with the choices of def.  With events, a failing input is CLOTH_EINVAL
 * "FILE:LINE: why"; a failed frame writes no row and the run waits for a reset input. */
cloth_status cloth_run_sim_with(cloth_sim *sim, const char *out_dir,
                                const cloth_output_def *def, cloth_summary *summary,
                                cloth_error *err);

/* ----------------------------------------------------------------- columns */
/* The files of a run are tables of structs: a row of series.csv is a cloth_frame, of
 * summary.csv a cloth_summary, of kernel i's iteration log a cloth_iter (table
 * CLOTH_TABLE_LOG + i: its columns by name; none without a log).  A table lists fields
 * (name, type, offset, size), the file's columns first; runs, sweeps and bindings write
 * and read rows from these tables, so no one writes a column list or a layout by hand. */

typedef enum { CLOTH_TABLE_SERIES = 0, CLOTH_TABLE_SUMMARY, CLOTH_TABLE_LOG } cloth_table;

/* Its file's name ("series.csv"; a log's is the kernel's own), NULL for no such table. */
const char *cloth_table_file(cloth_table t);

typedef enum {
    CLOTH_VALUE_INT = 0,        /* int, written "%d"                                  */
    CLOTH_VALUE_LONG,           /* long, "%ld"                                        */
    CLOTH_VALUE_DOUBLE,         /* double, "%.17g" (round-trips); NaN: an empty field */
    CLOTH_VALUE_NAME,           /* char[size], "%s"                                   */
    CLOTH_VALUE_RUN_STATUS      /* cloth_run_status (an int), its name ("ok")         */
} cloth_value_type;

/* The size of a row's struct (sizeof(cloth_frame), ...), its fields and, of those, the
 * file's columns (the first ones); 0 for no such table or a kernel without a log. */
size_t cloth_table_row_size(cloth_table t);
int cloth_table_fields(cloth_table t);
int cloth_table_columns(cloth_table t);

/* Field i of table t, a property at a time (bindings need no struct): its name (the
 * column's header), NULL past the end; */
const char *cloth_field_name(cloth_table t, int i);
cloth_value_type cloth_field_type(cloth_table t, int i);
size_t cloth_field_offset(cloth_table t, int i);   /* offsetof(row struct, field)     */
size_t cloth_field_size(cloth_table t, int i);     /* sizeof the field                */
/* the int field saying whether it has a value (0: an empty field), or -1; */
int cloth_field_present(cloth_table t, int i);
/* and one line saying what it holds. */
const char *cloth_field_meaning(cloth_table t, int i);

/* A table's header (its column names joined by ','), or one row from a struct of the
 * table's type; neither ends the line. */
void cloth_table_write_header(FILE *f, cloth_table t);
void cloth_table_write_row(FILE *f, cloth_table t, const void *row);

/* ------------------------------------------------------------------ sweeps */

typedef struct cloth_sweep cloth_sweep;

/* Reads the [sweep] section of a scene file (src/harness/sweep_decl.c), every override
 * checked (FILE:LINE: key on error).  Every run starts from base (copied; the file's
 * scene with the caller's --set overrides, NULL: as it is) and applies its own on top. */
cloth_status cloth_sweep_load(const char *path, const cloth_scene *base, cloth_sweep **out,
                              cloth_error *err);
void cloth_sweep_destroy(cloth_sweep *sweep);
int cloth_sweep_count(const cloth_sweep *sweep);
const char *cloth_sweep_label(const cloth_sweep *sweep, int i);
/* Run i's folder (its label, characters other than letters, digits and ._=+- as '_'),
 * its overrides' count and override s ("section.key=value"). */
const char *cloth_sweep_folder(const cloth_sweep *sweep, int i);
int cloth_sweep_sets(const cloth_sweep *sweep, int i);
const char *cloth_sweep_set(const cloth_sweep *sweep, int i, int s);

/* Runs every run (jobs at a time) into out_dir/<label>/ and writes out_dir/sweep.csv
 * (label, overrides, summary columns, message; "failed" for a run that cannot start);
 * *not_ok counts the runs not "ok".  CLOTH_OK when sweep.csv was written. */
cloth_status cloth_sweep_run(const cloth_sweep *sweep, const char *out_dir, int jobs,
                             FILE *progress, int *not_ok, cloth_error *err);

/* How cloth_sweep_execute runs a sweep. */
typedef struct cloth_sweep_def {
    int jobs;                   /* runs at a time, 1..256 (default 1)                  */
    FILE *progress;             /* one line per finished run, or NULL (default)        */
    const char *const *ids;     /* per run, its run.done's id, or NULL: no run.done    */
    int resume;                 /* 1: skip runs with a result of their id; default 0   */
    int table;                  /* 1 (default): write sweep.csv from the runs' results  */
} cloth_sweep_def;

void cloth_default_sweep_def(cloth_sweep_def *def);

/* cloth_sweep_run with the choices of def.  Before a run starts, its folder's run.done is
 * removed; after it ends (any status), run.done is written when ids are given. */
cloth_status cloth_sweep_execute(const cloth_sweep *sweep, const char *out_dir,
                                 const cloth_sweep_def *def, int *not_ok, cloth_error *err);

/* What cloth_sweep_collect found: runs by status.  stale: a folder with a result of
 * another id (made from another plan); missing: no complete result. */
typedef struct cloth_sweep_tally {
    int ok, not_converged, diverged, step_failed, failed, missing, stale;
} cloth_sweep_tally;

/* Writes out_dir/sweep.csv from the run folders as cloth_sweep_run would: run i's row
 * from its summary.csv when run.done names ids[i]; "failed" (with the reason) for a
 * scene that cannot start; else "missing", or "stale" for a result of another id.
 * Deletes nothing.  CLOTH_OK when sweep.csv was written; *tally counts the rows. */
cloth_status cloth_sweep_collect(const cloth_sweep *sweep, const char *out_dir,
                                 const char *const *ids, cloth_sweep_tally *tally,
                                 cloth_error *err);

#endif /* CLOTH_H */
