/*
 * clothbench — cloth simulation kernels for teaching and research.
 *
 * The one public header.  Data flow of a run:
 *
 *   scene file (INI) --cloth_scene_load--> cloth_scene
 *   cloth_scene --cloth_sim_create--> cloth_sim (mesh + state + kernel work)
 *   cloth_sim_frame()  advances one frame (run.substeps kernel steps of h = dt/substeps)
 *                      and fills a cloth_frame with the shared metrics
 *   cloth_run()        loops frames and writes series.csv, summary.csv, final.obj
 *                      (and newton.csv) into a folder
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
    int layers;                 /* copies of the grid stacked along the plane's normal
                                 * (+z for xy, +y for xz), >= 1; separate components */
    double layer_gap;           /* distance between neighbouring layers (m)           */
    double layer_shift[3];      /* in-plane shift of each layer from the one below (m) */
    int layer_shift_dims;       /* 2: layer_shift[0..1] are along the plane's two axes
                                 * (x, y for xy; x, z for xz); 3: a world vector      */
    double jitter;              /* each layer's initial height along the normal moves
                                 * by a uniform draw in [-jitter, jitter] from
                                 * run.seed (m); 0 = none                             */
    char garment[CLOTH_PATH_MAX]; /* a sewing pattern (JSON) whose sewn and welded
                                 * garment is the mesh, or ""                         */
    int pins_follow;            /* the pins with an [avatar]: CLOTH_PINS_FOLLOW_*     */
} cloth_mesh_def;

/* [garment]: sewing a pattern (docs/garments.md). */
typedef struct cloth_garment_def {
    double weld_distance;       /* seams are welded once every pair is closer (m)     */
    int max_frames;             /* sewing frames at most                              */
    double sew_damping;         /* the air damping c (N s/m) while sewing, in place of
                                 * world.air_damping: without it the seams of the
                                 * undamped kernels oscillate about closed            */
    int sew_on_body;            /* sew round the scene's avatar (1, sew_on = body) or in
                                 * the air (0, sew_on = air: no obstacle at all)      */
} cloth_garment_def;

typedef struct cloth_material_def {
    double k[CLOTH_FAMILIES];   /* spring stiffness per family (N/m)                  */
    double vertex_mass;         /* uniform mass per vertex (kg), used if density == 0 */
    double density;             /* area density (kg/m^2); > 0 lumps mass by area      */
    double spring_damping;      /* c_d of F = -c_d ((v_i - v_j).u) u  (N s/m)         */
    double thickness;           /* cloth-cloth contact distance (m): self-collision
                                 * keeps non-adjacent parts this far apart            */
    double self_friction;       /* in [0, 1]: the fraction of a colliding pair's
                                 * relative velocity self-collision removes per step
                                 * (the projecting kernels)                           */
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
    double spin;                /* angular velocity about the world y axis through the
                                 * centre (rad/s, right-handed: a point at +x from the
                                 * centre moves towards -z); it moves no vertex itself:
                                 * friction reads it as the surface's velocity        */
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
    char joint_map[CLOTH_PATH_MAX]; /* two columns, clip joint and body joint, for a
                                 * naming not built in (CMU, Mixamo), or ""           */
    int keep_root_offset;       /* 1: the clip's first horizontal root position kept  */
    double motion_scale;        /* body metres a clip unit; 0: from the hip heights   */
    double blend_in;            /* s from the rest pose to the clip's first; < 0: auto */
    cloth_clip_end clip_end;    /* what follows the clip's last frame                 */
    double blend_time;          /* clip_end = blend: s from the last pose to the first */
    double max_skin_step;       /* the guard: largest skin move a substep (m); < 0:
                                 * auto, avatar.offset                                */
    int strict;                 /* 1: the guard fails the run instead of warning      */
} cloth_avatar_def;

/* run.self_collision: what cloth-cloth contact a kernel handles (docs/contact.md). */
typedef enum {
    CLOTH_SELF_OFF = 0,         /* none                                               */
    CLOTH_SELF_ON = 1,          /* no crossing: the robust stage (Bridson et al. 2002)
                                 * in explicit, verlet and pbd; newton's IPC contact  */
    CLOTH_SELF_PROXIMITY = 2,   /* vertex pairs and vertex-triangle pushes within
                                 * material.thickness, no CCD (formerly "triangles")  */
    CLOTH_SELF_PARTICLES = 3    /* vertex pairs kept material.thickness apart (the
                                 * particle method; formerly "on")                    */
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

/* One kernel's settings.  Opaque here: the kernel lays them out (its folder under
 * src/kernels/) and fills them from its own key table; callers read and write them by
 * key name only (cloth_scene_set, cloth_scene_get), so that this header names no kernel
 * and a new kernel changes no struct of it.  A fixed block keeps the scene a plain value
 * (copied with =, sized by cloth_scene_size) with nothing to free. */
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
    int layers;                 /* grid layers (1 for an OBJ mesh): layer l holds the
                                 * vertices l*nx*ny .. (l+1)*nx*ny - 1, and its springs,
                                 * triangles and hinges join none of another layer    */
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
    double barrier;             /* sum kappa psi (newton), else 0                     */
    double total;               /* kinetic + gravity + elastic + barrier              */
    double drift;               /* (total - total_0) / E_scale                        */
    double stretch_max;         /* max l/l0 - 1 over structural and shear springs     */
    double stretch_mean;        /* mean of the same                                   */
    double stretch_sigma_max;   /* max sigma1 - 1 over triangles (sigma1 the larger
                                 * singular value of the 3x2 deformation gradient)    */
    double min_gap;             /* smallest obstacle (or self-contact) gap            */
    int has_gap;                /* 0 when there is nothing to have a gap to           */
    int penetrations;           /* vertices with a negative obstacle gap              */
    long intersections;         /* (edge, triangle) pairs of the cloth sharing no vertex
                                 * where the edge crosses the triangle (-1: positions
                                 * not finite)                                        */
    long tunnelled;             /* point-triangle and edge-edge pairs sharing no vertex
                                 * whose linear motion from the previous frame's
                                 * positions reaches separation 0 by the public CCD
                                 * (0 at frame 0; -1: not finite or not countable)    */
    int collision_passes;       /* run.self_collision = on: most CCD passes the robust
                                 * stage made in a step of this frame (0: none)       */
    long impact_zones;          /* ... rigid impact zones it formed, over the frame   */
    double collide_ms;          /* ... its wall time in the frame (ms)                */
    long iterations;            /* kernel work this frame (passes, Newton iterations) */
    double cond_max;            /* largest Newton condition number this frame         */
    int has_cond;               /* 0 when no condition number was computed            */
    char cond_method[16];       /* how: "exact-2norm" or "estimate-1norm"; "" if none  */
    int not_converged;          /* kernel steps this frame that did not converge      */
    int stalled;                /* of those, steps that stopped early as stalled      */
    int regularized;            /* Newton solves that needed Tikhonov this frame      */
    int lin_capped;             /* Newton solves whose PCG stopped at its cap         */
    double wall_ms;             /* wall time of the frame's kernel work               */
    double body_depth;          /* [avatar]: largest avatar.offset - d over vertices, d
                                 * the exact distance to the posed body; 0 if none    */
    double body_ms;             /* [avatar]: wall time of the body's collision stage  */
} cloth_frame;

/* One Newton iteration (newton.csv). */
typedef struct cloth_newton_iter {
    long frame;
    int iter;                   /* iteration within the frame (substeps continue it)  */
    double energy;              /* incremental potential before the step             */
    double grad_norm;           /* |grad E|_inf                                       */
    double step_norm;           /* |alpha dx|_inf                                     */
    double alpha;               /* accepted step length                               */
    double cond;                /* condition number of H (NaN when off)               */
    double kappa_max;           /* largest barrier stiffness in use                   */
    int active_contacts;        /* active contact and strain-limit terms              */
    int regularized;            /* 1 when Cholesky needed eps*I                       */
    int lin_iters;              /* PCG iterations of the solve (0: a direct solver)   */
    char cond_method[16];       /* "exact-2norm", "estimate-1norm" or "off"           */
    char stop[12];              /* on a step's last row why it stopped: "converged",
                                 * "max_iters" or "stalled"; "" on the other rows     */
} cloth_newton_iter;

typedef struct cloth_sim cloth_sim;

/* Builds mesh, state and kernel work for a scene; all memory a run needs is allocated
 * here.  The scene is copied. */
cloth_status cloth_sim_create(const cloth_scene *scene, cloth_sim **out, cloth_error *err);
void cloth_sim_destroy(cloth_sim *sim);

/* The same for a mesh the caller made (cloth_mesh_create, or a garment's sewn mesh):
 * the sim owns it from here on (it is destroyed with the sim, or at once on failure);
 * the scene's mesh keys are not read. */
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

/* The state: positions and velocities, 3n doubles each, owned by the sim.  A caller may
 * write them between frames (the notebooks do). */
double *cloth_sim_positions(cloth_sim *sim);
double *cloth_sim_velocities(cloth_sim *sim);
const cloth_mesh *cloth_sim_mesh(const cloth_sim *sim);
const cloth_scene *cloth_sim_scene(const cloth_sim *sim);
double cloth_sim_time(const cloth_sim *sim);

/* omega_max, the largest angular frequency of the springs about the initial shape:
 * omega_max^2 = largest eigenvalue of M^-1/2 K M^-1/2 over the free vertices, K the
 * springs' stiffness (Hessian) at the initial positions.  Explicit schemes are stable for
 * h < 2 / omega_max.  Dense (LAPACKE): at most 6000 unknowns, the limit of every dense
 * solve (a kernel's dense_max, cloth_kernel_info). */
cloth_status cloth_sim_omega_max(const cloth_sim *sim, double *omega_max, cloth_error *err);

/* The Newton log of the last frame (empty for other kernels). */
int cloth_sim_newton_log(const cloth_sim *sim, const cloth_newton_iter **rows);

/* -------------------------------------------------------------- interaction */
/*
 * Picking, dragging, pins and live changes for an interactive viewer (the Verlet cloth
 * web demo and the mass-spring cloth paper).  They change the sim between frames, never
 * inside one.  Nothing allocates except a rebuild of the kernel's work (a kernel switch,
 * a kernel key, or a changed pin set at the start of the next frame), which happens
 * before the steps, never inside one.
 *
 * Pins: a pinned vertex has inverse mass 0 and is held at its prescribed position
 * (mesh->x0 of that vertex).  The functions below change mesh->pinned, inv_mass,
 * n_pinned and the x0 rows of the vertices they pin; the next cloth_sim_frame rebuilds
 * the kernel's work once if the pin set changed (it may have sorted springs by pins);
 * cloth_sim_reset puts back the scene's own pins and initial positions.
 */

/* The mass-spring cloth paper's picking: every vertex of x (n vertices, 3n doubles) is a
 * sphere of the given radius; returns the vertex whose sphere the ray origin + t dir,
 * t >= 0, enters first, or -1 when the ray misses them all (or dir is zero or not
 * finite).  dir need not be unit length.  *t_hit, if not NULL, gets the distance from
 * origin to the entry point in metres (0 if origin is inside that sphere). */
int cloth_pick_ray(const double *x, int n, const double origin[3], const double dir[3],
                   double radius, double *t_hit);

/* The mass-spring cloth paper's drag mapping.  A vertex at p1 was grabbed with the
 * camera at o1 looking along the unit ray dir1, dist = |p1 - o1|; the mouse now gives the
 * unit ray dir2 from o2.  Returns p2 = p1 + (o2 - o1) + (dir2 - dir1) dist: with a still
 * camera this is the paper's P2 = P1 + (dir2 - dir1) dist, and when p1 lay on the first
 * ray, p2 lies on the second one at the same distance from the camera. */
void cloth_drag_point(const double p1[3], const double o1[3], const double dir1[3],
                      const double o2[3], const double dir2[3], double dist, double p2[3]);

/* Picks the vertex under the ray (cloth_pick_ray with radius) and holds it as a
 * temporary pin where it is; *vertex gets it, or -1 on a miss (still CLOTH_OK).  A
 * previous grab is released first.  CLOTH_EINVAL for a non-finite ray or radius <= 0. */
cloth_status cloth_sim_grab(cloth_sim *sim, const double origin[3], const double dir[3],
                            double radius, int *vertex, cloth_error *err);

/* Moves the grabbed vertex to cloth_drag_point(grab point, grab ray, this ray) and holds
 * it there with zero velocity.  CLOTH_EINVAL when nothing is grabbed or the ray is not
 * finite. */
cloth_status cloth_sim_drag(cloth_sim *sim, const double origin[3], const double dir[3],
                            cloth_error *err);

/* Lets the grabbed vertex go: it gets back the pin state (and held position) it had
 * before the grab.  Nothing happens when nothing is grabbed. */
void cloth_sim_release(cloth_sim *sim);

/* The grabbed vertex, or -1. */
int cloth_sim_grabbed(const cloth_sim *sim);

/* on = 1 pins vertex where it is now (zero velocity); on = 0 frees it.  Releases a grab
 * of that vertex first.  CLOTH_EINVAL for an index out of range. */
cloth_status cloth_sim_pin(cloth_sim *sim, int vertex, int on, cloth_error *err);

/* Changes one scene key of a running sim, written as for --set ("world.wind=1 0 2").
 * Keys that can change live: world.*, material.k_structural, k_shear, k_bend,
 * spring_damping, sphere.radius and sphere.offset (when the scene has a sphere),
 * run.substeps, run.kernel (switches the kernel and keeps positions and velocities) and
 * every key of a kernel's own section (the kernel's work is rebuilt, the state kept).
 * Changing gravity, a stiffness or the kernel restarts energy drift from the current
 * state.  Any other key, or a value the scene parser refuses, is CLOTH_EINVAL with a
 * message "key: why"; the sim is then unchanged. */
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
    int limited;                /* the target was farther than ik_max_step: this call
                                 * went ik_max_step towards it (call again next step) */
    int unreachable;            /* this call's goal could not be reached: the pose is
                                 * the closest CCD found                              */
    int iterations;             /* CCD sweeps used                                    */
    double distance;            /* effector to target afterwards (m)                  */
    double moved;               /* how far the effector moved (<= ik_max_step) (m)    */
    double effector[3];         /* where it is now                                    */
} cloth_ik_result;

/* Cyclic coordinate descent: turns the chain of `chain` joints above the joint named
 * joint ("l_wrist", ...) within their limits so that joint moves towards target, at
 * most avatar.ik_max_step this call; the pose then stays (the clip stops driving the
 * body until reset).  CLOTH_EINVAL for an unknown joint; an unreachable target is not
 * an error: res->unreachable says the pose is the closest found. */
cloth_status cloth_avatar_ik(cloth_avatar *avatar, const char *joint, const double target[3],
                             int chain, cloth_ik_result *res, cloth_error *err);

/* The avatar's drawing surface (the triangles the viewer draws and a recording keeps):
 * its vertex count, and its triangles (3 per triangle, vertex indices) in *tris. */
int cloth_avatar_surface_size(const cloth_avatar *avatar, const int **tris, int *n_tris);

/* The surface's vertices skinned to the body's pose now, 3 per vertex, into out.
 * Allocates nothing. */
void cloth_avatar_surface(cloth_avatar *avatar, double *out);

/* The world position of the joint named joint in the pose now (an IK call's effect
 * included); CLOTH_EINVAL for an unknown joint. */
/* One line on the avatar's clip for a run's output (its naming, frames, frame rate, the
 * clip frames a simulated second and a frame of dt cover, its units) into buf; 0 and
 * nothing written without a clip. */
int cloth_avatar_motion_note(const cloth_avatar *avatar, double dt, char *buf, size_t size);

/* One line on the body speed guard when it fired during the run (avatar.max_skin_step:
 * the frame at run.dt = dt, the joint, the distance): 1 and the line in buf, else 0. */
int cloth_avatar_guard_note(const cloth_avatar *avatar, double dt, char *buf, size_t size);

cloth_status cloth_avatar_joint(const cloth_avatar *avatar, const char *joint, double pos[3],
                                cloth_error *err);

/* The value of scene key "section.key" as a scene file would write it ("%.17g" for
 * numbers; vectors as three numbers).  CLOTH_EINVAL for an unknown key or one whose
 * value cannot be written back (mesh.springs, mesh.pins, mesh.layer_shift, sphere.motion). */
cloth_status cloth_scene_get(const cloth_scene *scene, const char *key, char *value,
                             size_t size, cloth_error *err);

/* --------------------------------------------------------- contact queries */
/*
 * Continuous collision detection of one pair moving linearly: a point p and a triangle
 * (a, b, c), or an edge (a, b) and an edge (c, d).  Each vertex goes from its start
 * position (suffix 0) at t = 0 to its end position (suffix 1) at t = 1,
 * x(t) = x0 + t (x1 - x0), and d(t) is the distance between the closed primitives.  The
 * method is additive CCD (Li, Kaufman and Jiang 2021, "Codimensional Incremental
 * Potential Contact"): steps forward in t that the distance and a bound on the closing
 * speed prove safe.
 *
 * Returns 1, a hit, when d may come within dmin (>= 0; 0 is contact) during the motion:
 * *toi is then a time up to which d is proven to stay above dmin, so at most the first
 * time d reaches dmin.  Returns 0 when d stays above dmin on all of [0, 1], with
 * *toi = 1.  Conservative: a motion that reaches dmin is never reported as 0 (touching
 * exactly at t = 1 included).  A motion that stays away is reported as a hit only when d
 * comes within dmin + 1e-3 (d(0) - dmin) (then *toi is a time when it is that close), or
 * when the proof would take more than 10^6 distance evaluations (a vertex sliding along
 * a face at a tiny gap; then *toi is where it gave up).  A pair that starts within dmin
 * is a hit with *toi = 0.  Returns -1, *toi = 0, for dmin negative or not finite or a
 * coordinate not finite.  toi may be NULL.  Allocates nothing.
 *
 * For a line search that must keep the distance above eta times its current value d(0),
 * pass dmin = eta d(0): every step fraction up to *toi keeps it there.
 */

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

/* What a caller needs to know about a kernel, so that none compares names.  Keys are of
 * the kernel's own section: write them as "NAME.KEY". */
typedef struct cloth_kernel_facts {
    const char *name;           /* as in run.kernel                                   */
    const char *summary;        /* one line                                           */
    int interactive_max;        /* most unknowns (3 x free vertices) it steps at a
                                 * viewer's frame rate; 0 = no limit                  */
    int dense_max;              /* most unknowns its dense solves take (a larger mesh
                                 * is refused at creation); 0 = no dense solve        */
    const char *iteration_key;  /* the key of its iteration count, or NULL            */
    const char *stiffness_key;  /* a stiffness of its own that a viewer scales with
                                 * the springs' k ("k_relax"), or NULL                */
    double stiffness_max;       /* ... keeping it at or below this                    */
    int reports_cond;           /* 1: its frames carry condition numbers (has_cond)   */
    const char *cond_off;       /* "KEY=VALUE" that stops computing them, or NULL     */
    int frame_substeps;         /* steps per 1/60 s frame it needs on the example
                                 * cloths (k ~ 500 N/m, 10 g vertices)                */
    const char *interactive_set; /* "KEY=VALUE" a viewer applies for its frame rate
                                 * (below interactive_max), or NULL                   */
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
    long regularized;           /* Newton solves that needed Tikhonov                 */
    long lin_capped;            /* Newton solves whose PCG stopped at pcg_max_iters   */
    double cond_mean, cond_max; /* over frames with a condition number (else NaN)     */
    char cond_method[16];       /* how they were computed: exact-2norm,
                                 * estimate-1norm, mixed, or off                      */
    double wall_ms;             /* kernel time of all frames                          */
    char message[CLOTH_MSG_MAX];/* why the run stopped early ("SCENE: frame N: ..."), or "" */
} cloth_summary;

const char *cloth_run_status_string(cloth_run_status s);


/* Runs the scene and writes series.csv, summary.csv, final.obj (and newton.csv for the
 * newton kernel) into out_dir (created if missing).  Each file is written under a
 * ".part" name, flushed every frame and renamed when the run ends, diverged or not.
 * progress, if not NULL, gets one line per 10 % of the frames.  Returns CLOTH_OK when the
 * run finished (its status, ok/diverged/not-converged/step-failed, with the reason of an
 * early stop, is in *summary); an error for bad
 * input or I/O. */
cloth_status cloth_run(const cloth_scene *scene, const char *out_dir, FILE *progress,
                       cloth_summary *summary, cloth_error *err);

/* The same for a sim made by the caller (from its current state, usually frame 0);
 * errors are then only about the output files (CLOTH_EIO). */
cloth_status cloth_run_sim(cloth_sim *sim, const char *out_dir, FILE *progress,
                           cloth_summary *summary, cloth_error *err);

/* Marks out_dir as a finished run of a sweep: writes out_dir/run.done (through run.done.part
 * and a rename) holding "id ID" and "message MESSAGE" (the summary's message, which
 * summary.csv does not keep).  Call it after cloth_run or cloth_run_sim returned CLOTH_OK,
 * so that run.done exists only beside a complete summary.csv; a sweep takes a folder as a
 * result of its run only when run.done names that run's id (cloth_sweep_collect). */
cloth_status cloth_run_mark_done(const char *out_dir, const char *id,
                                 const cloth_summary *summary, cloth_error *err);

/* ---------------------------------------------------------- record and replay */
/*
 * A recording: a mesh's positions per frame as a PC2 point cache (the format Blender's
 * Mesh Cache modifier reads, pc2.c) beside its topology as OBJ.  `cloth run --record`
 * records the cloth as cloth.pc2 and cloth.obj, and with an [avatar] the body's drawing
 * surface the same way as body.pc2 and body.obj (cloth_avatar_surface at every frame).
 *
 * Inputs: what an interactive viewer does to a sim between frames (cloth_input), applied
 * by cloth_sim_input, the one entry point of both the viewer and the replay.  A session
 * (cloth_session_*) applies inputs and steps frames for a viewer and writes what it did to
 * a folder: events.jsonl (one JSON object a line, each input with the count of frames
 * stepped before it) and series.csv.  cloth_events_load reads events.jsonl back, and a run
 * with def.events (cloth_run_sim_with) re-simulates it headless: the same inputs at the
 * same frame boundaries give the same series.csv, apart from wall_ms.
 */

/* The header of a point cache. */
typedef struct cloth_pc2_info {
    int points;                 /* vertices a sample holds                            */
    int samples;                /* samples the file holds (and its header counts)     */
    float start_frame;          /* frame of sample 0 (0 for our runs)                 */
    float sample_rate;          /* frames between two samples (1 for our runs)        */
} cloth_pc2_info;

typedef struct cloth_pc2_writer cloth_pc2_writer;
typedef struct cloth_pc2 cloth_pc2;

/* Starts path as path.part with a header of 0 samples.  CLOTH_EINVAL for points < 1 or
 * a rate that is not finite and > 0; CLOTH_EIO when the file cannot be written. */
cloth_status cloth_pc2_create(const char *path, int points, float start_frame,
                              float sample_rate, cloth_pc2_writer **out, cloth_error *err);
/* Appends x (3 points doubles, rounded to float32) as the next sample, then counts it in
 * the header: the file on disk never claims a sample it does not hold whole.  Allocates
 * nothing. */
cloth_status cloth_pc2_append(cloth_pc2_writer *w, const double *x, cloth_error *err);
int cloth_pc2_writer_samples(const cloth_pc2_writer *w);
/* Closes and renames path.part to path; frees w either way. */
cloth_status cloth_pc2_finish(cloth_pc2_writer *w, cloth_error *err);
/* Closes without renaming (path.part stays, a readable cache of the samples so far). */
void cloth_pc2_writer_destroy(cloth_pc2_writer *w);

/* Opens a point cache and checks its header against its size.  CLOTH_EPARSE, the message
 * naming the file, for a file that is not PC2, has another version, impossible counts, or
 * fewer bytes than its header promises; CLOTH_EIO when it cannot be read. */
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
    long frame;                 /* frames stepped (or tried) before it came; set by a
                                 * session, read by a replay                          */
    int line;                   /* its line in events.jsonl, or 0                     */
    char assignment[CLOTH_ASSIGN_MAX]; /* SET                                         */
    double origin[3], dir[3];   /* GRAB, DRAG: the camera ray                         */
    double radius;              /* GRAB: the pick radius (m)                          */
    int vertex, on;             /* PIN                                                */
    char joint[CLOTH_NAME_MAX]; /* IK: the end effector ("l_wrist")                   */
    double target[3];           /* IK: where it is pulled (m)                         */
    int chain;                  /* IK: joints above it that turn                      */
} cloth_input;

/* Applies in to sim through the function its kind names; *vertex (if not NULL) gets the
 * grabbed vertex of a GRAB (-1 on a miss), else -1.  Errors are those functions' (IK on
 * a sim without an avatar is CLOTH_EINVAL). */
cloth_status cloth_sim_input(cloth_sim *sim, const cloth_input *in, int *vertex,
                             cloth_error *err);

typedef struct cloth_session cloth_session;

/* Starts recording sim (made from scene_path with the n_sets overrides sets, which the
 * replay will load again) into dir (created if missing): events.jsonl and series.csv, as
 * .part files flushed at every line and renamed by cloth_session_close.  series.csv gets
 * its header and the row of the current state. */
cloth_status cloth_session_open(cloth_sim *sim, const char *dir, const char *scene_path,
                                const char *const *sets, int n_sets, cloth_session **out,
                                cloth_error *err);
/* cloth_sim_input, and when it succeeds, the input's line in events.jsonl (frame: the
 * frames this session has stepped or tried).  A write error is CLOTH_EIO (the input was
 * applied). */
cloth_status cloth_session_input(cloth_session *s, const cloth_input *in, int *vertex,
                                 cloth_error *err);
/* cloth_sim_frame, counted; its row goes to series.csv when the frame succeeds.  Returns
 * cloth_sim_frame's status (a failed frame writes no row), or CLOTH_EIO. */
cloth_status cloth_session_frame(cloth_session *s, cloth_frame *out, cloth_error *err);
/* Ends events.jsonl with an "end" line holding the frame count, closes and renames both
 * files, frees s. */
cloth_status cloth_session_close(cloth_session *s, cloth_error *err);

typedef struct cloth_events cloth_events;

/* Reads an events.jsonl.  CLOTH_EPARSE "FILE:LINE: what is wrong" for a line that is not
 * one of the objects a session writes, frames that go back, or a missing header. */
cloth_status cloth_events_load(const char *path, cloth_events **out, cloth_error *err);
void cloth_events_destroy(cloth_events *ev);
/* The file it was read from (for messages). */
const char *cloth_events_path(const cloth_events *ev);
/* The scene file and overrides the session started from. */
const char *cloth_events_scene(const cloth_events *ev);
int cloth_events_sets(const cloth_events *ev);
const char *cloth_events_set(const cloth_events *ev, int i);
/* The inputs, in order, and the frames the session stepped (its "end" line, or the last
 * input's frame when the session was cut short). */
int cloth_events_count(const cloth_events *ev);
const cloth_input *cloth_events_input(const cloth_events *ev, int i);
long cloth_events_frames(const cloth_events *ev);

/* What a run writes besides its tables, and what it applies. */
typedef struct cloth_output_def {
    FILE *progress;             /* a line per 10 % of the frames, or NULL (default)   */
    int record;                 /* 1: cloth.pc2 (every frame's positions, frame 0
                                 * first) and cloth.obj (its topology), and body.pc2
                                 * and body.obj with an [avatar]; default 0           */
    const cloth_events *events; /* inputs to apply at their frames, and the frame
                                 * count instead of run.frames; NULL (default)        */
} cloth_output_def;

void cloth_default_output_def(cloth_output_def *def);

/* cloth_run_sim with the choices of def.  With events, an input that fails is
 * CLOTH_EINVAL "FILE:LINE: why" (the sim is not the one recorded); a frame that fails
 * counts as a frame without a row, and the run steps again only after a reset input (the
 * viewer waits for Reset), or ends when no input is left. */
cloth_status cloth_run_sim_with(cloth_sim *sim, const char *out_dir,
                                const cloth_output_def *def, cloth_summary *summary,
                                cloth_error *err);

/* ----------------------------------------------------------------- columns */
/*
 * The files of a run are tables of structs: a row of series.csv is a cloth_frame, of
 * newton.csv a cloth_newton_iter, of summary.csv a cloth_summary.  One table per file
 * lists every field of its struct (name, type, offset, size); the first
 * cloth_table_columns() of them are the file's columns in order, the rest live only in
 * the struct (flags, counts the file does not keep).  Runs and sweeps write headers and
 * rows from these tables, and bindings build their copy of the structs from them (the
 * Python wrapper does), so no one writes a column list or a struct layout by hand.
 */

typedef enum { CLOTH_TABLE_SERIES = 0, CLOTH_TABLE_NEWTON, CLOTH_TABLE_SUMMARY } cloth_table;

typedef enum {
    CLOTH_VALUE_INT = 0,        /* int, written "%d"                                  */
    CLOTH_VALUE_LONG,           /* long, "%ld"                                        */
    CLOTH_VALUE_DOUBLE,         /* double, "%.17g" (round-trips); NaN: an empty field */
    CLOTH_VALUE_NAME,           /* char[size], "%s"                                   */
    CLOTH_VALUE_RUN_STATUS      /* cloth_run_status (an int), its name ("ok")         */
} cloth_value_type;

/* The size of a row's struct (sizeof(cloth_frame), ...), its fields and, of those, the
 * file's columns (the first ones); 0 for no such table. */
size_t cloth_table_row_size(cloth_table t);
int cloth_table_fields(cloth_table t);
int cloth_table_columns(cloth_table t);

/* Field i of table t, one property at a time so that bindings need no struct: its name
 * (the field's, and the column's header), NULL past the end; */
const char *cloth_field_name(cloth_table t, int i);
cloth_value_type cloth_field_type(cloth_table t, int i);
size_t cloth_field_offset(cloth_table t, int i);   /* offsetof(row struct, field)     */
size_t cloth_field_size(cloth_table t, int i);     /* sizeof the field                */
/* the index of the int field that says whether field i has a value (0: written as an
 * empty field), or -1 when it always has one; */
int cloth_field_present(cloth_table t, int i);
/* and one line saying what it holds. */
const char *cloth_field_meaning(cloth_table t, int i);

/* A table's header (its column names joined by ','), or one row from a struct of the
 * table's type; neither ends the line. */
void cloth_table_write_header(FILE *f, cloth_table t);
void cloth_table_write_row(FILE *f, cloth_table t, const void *row);

/* ------------------------------------------------------------------ sweeps */

typedef struct cloth_sweep cloth_sweep;

/* Reads the [sweep] section of a scene file (its form: src/harness/sweep_decl.c) and
 * checks every override against the scene, naming FILE:LINE: key on error.  Every run
 * starts from base, the scene of the same file with the caller's overrides applied
 * (cloth_scene_load, then cloth_scene_set: what --set does), and applies its own
 * overrides on top; NULL means the file's scene as it is.  base is copied. */
cloth_status cloth_sweep_load(const char *path, const cloth_scene *base, cloth_sweep **out,
                              cloth_error *err);
void cloth_sweep_destroy(cloth_sweep *sweep);
int cloth_sweep_count(const cloth_sweep *sweep);
const char *cloth_sweep_label(const cloth_sweep *sweep, int i);
/* Run i's folder name under the sweep's folder (the label, characters other than letters,
 * digits and ._=+- as '_'), its overrides' count and override s ("section.key=value"). */
const char *cloth_sweep_folder(const cloth_sweep *sweep, int i);
int cloth_sweep_sets(const cloth_sweep *sweep, int i);
const char *cloth_sweep_set(const cloth_sweep *sweep, int i, int s);

/* Runs every run (jobs at a time) into out_dir/<label>/ and writes out_dir/sweep.csv:
 * label, the overrides, the summary columns and a message.  A run that cannot start is
 * recorded with status "failed".  *not_ok counts the runs that did not end "ok".  Returns
 * CLOTH_OK when sweep.csv was written. */
cloth_status cloth_sweep_run(const cloth_sweep *sweep, const char *out_dir, int jobs,
                             FILE *progress, int *not_ok, cloth_error *err);

/* How cloth_sweep_execute runs a sweep. */
typedef struct cloth_sweep_def {
    int jobs;                   /* runs at a time, 1..256 (default 1)                  */
    FILE *progress;             /* one line per finished run, or NULL (default)        */
    const char *const *ids;     /* per run, the id its folder's run.done gets
                                 * (cloth_run_mark_done), or NULL: no run.done         */
    int resume;                 /* 1: leave out the runs that already have a result
                                 * with their id (needs ids); default 0                */
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

/* Writes out_dir/sweep.csv from the run folders, in declaration order, in the format of
 * cloth_sweep_run: a folder whose run.done names ids[i] gives run i's row from its
 * summary.csv; a run whose scene cannot start is "failed" with the reason (found again
 * here, so a collected table equals a local one); otherwise the row says "missing" or,
 * when the folder holds a result with another id, "stale".  Nothing is deleted.
 * Returns CLOTH_OK when sweep.csv was written; *tally counts the rows. */
cloth_status cloth_sweep_collect(const cloth_sweep *sweep, const char *out_dir,
                                 const char *const *ids, cloth_sweep_tally *tally,
                                 cloth_error *err);

#endif /* CLOTH_H */
