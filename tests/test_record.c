/* Record and replay (src/harness/pc2.c, events.c): PC2 point caches round-trip bit for
 * bit and refuse damaged files by name; events files refuse bad lines with FILE:LINE;
 * a session's inputs replayed headless give its series.csv again, apart from wall_ms. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ point caches */

/* Writes a cache of `samples` samples of n points from a fixed random sequence (some
 * values beyond float's precision, so the rounding is exercised); x gets the last. */
static void write_cache(const char *path, int n, int samples, double *x)
{
    cloth_pc2_writer *w;
    cloth_error err;
    ck_assert_msg(cloth_pc2_create(path, n, 0.0f, 1.0f, &w, &err) == CLOTH_OK, "%s", err.msg);
    unsigned long state = 7;
    for (int k = 0; k < samples; k++) {
        for (int i = 0; i < 3 * n; i++)
            x[i] = 10 * tu_random(&state) + 1e-9 * k;
        ck_assert(cloth_pc2_append(w, x, &err) == CLOTH_OK);
        ck_assert_int_eq(cloth_pc2_writer_samples(w), k + 1);
    }
    ck_assert_msg(cloth_pc2_finish(w, &err) == CLOTH_OK, "%s", err.msg);
}

START_TEST(pc2_round_trip_is_bit_identical)
{
    enum { N = 37, SAMPLES = 5 };
    char path[1100];
    snprintf(path, sizeof path, "%s/a.pc2", tu_temp_dir(0));
    cloth_pc2_writer *w;
    cloth_error err;
    ck_assert(cloth_pc2_create(path, N, 3.0f, 0.5f, &w, &err) == CLOTH_OK);
    double x[SAMPLES][3 * N];
    unsigned long state = 11;
    for (int k = 0; k < SAMPLES; k++) {
        for (int i = 0; i < 3 * N; i++)
            x[k][i] = 100 * tu_random(&state);
        ck_assert(cloth_pc2_append(w, x[k], &err) == CLOTH_OK);
    }
    ck_assert(cloth_pc2_finish(w, &err) == CLOTH_OK);

    cloth_pc2 *r;
    ck_assert_msg(cloth_pc2_open(path, &r, &err) == CLOTH_OK, "%s", err.msg);
    cloth_pc2_info info;
    cloth_pc2_header(r, &info);
    ck_assert_int_eq(info.points, N);
    ck_assert_int_eq(info.samples, SAMPLES);
    ck_assert(info.start_frame == 3.0f && info.sample_rate == 0.5f);
    float got[3 * N];
    for (int k = SAMPLES - 1; k >= 0; k--) { /* any order: samples are sought */
        ck_assert(cloth_pc2_sample(r, k, got, &err) == CLOTH_OK);
        for (int i = 0; i < 3 * N; i++) {
            float want = (float)x[k][i];
            ck_assert(memcmp(&got[i], &want, sizeof want) == 0);
        }
    }
    ck_assert(cloth_pc2_sample(r, SAMPLES, got, &err) == CLOTH_EINVAL);
    cloth_pc2_close(r);

    /* the file is the header and the samples, nothing else */
    char *text = tu_read_file(path);
    ck_assert(text && memcmp(text, "POINTCACHE2", 12) == 0);
    free(text);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    ck_assert_int_eq(ftell(f), 32 + 12L * N * SAMPLES);
    fclose(f);
}
END_TEST

/* A recording that is cut short (the writer never finished: a killed run) leaves
 * NAME.part whose header counts exactly the samples it holds, and no NAME. */
START_TEST(pc2_part_counts_only_whole_samples)
{
    char path[1100], part[1200];
    snprintf(path, sizeof path, "%s/cut.pc2", tu_temp_dir(0));
    snprintf(part, sizeof part, "%s.part", path);
    cloth_pc2_writer *w;
    cloth_error err;
    double x[3 * 4] = {0};
    ck_assert(cloth_pc2_create(path, 4, 0.0f, 1.0f, &w, &err) == CLOTH_OK);
    for (int k = 0; k < 3; k++) {
        x[0] = k;
        ck_assert(cloth_pc2_append(w, x, &err) == CLOTH_OK);
        cloth_pc2 *r;
        ck_assert_msg(cloth_pc2_open(part, &r, &err) == CLOTH_OK, "%s", err.msg);
        cloth_pc2_info info;
        cloth_pc2_header(r, &info);
        ck_assert_int_eq(info.samples, k + 1);
        float got[12];
        ck_assert(cloth_pc2_sample(r, k, got, &err) == CLOTH_OK && got[0] == (float)k);
        cloth_pc2_close(r);
    }
    cloth_pc2_writer_destroy(w);
    ck_assert(!tu_read_file(path));
}
END_TEST

/* Writes len bytes of data to path. */
static void put_bytes(const char *path, const unsigned char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert(f && fwrite(data, 1, len, f) == len);
    fclose(f);
}

/* Opening must fail with CLOTH_EPARSE and a message naming the file and saying what. */
static void refused(const char *path, const char *what)
{
    cloth_pc2 *r = (cloth_pc2 *)1;
    cloth_error err;
    ck_assert_int_eq(cloth_pc2_open(path, &r, &err), CLOTH_EPARSE);
    ck_assert(r == NULL);
    ck_assert_msg(strstr(err.msg, path) && strstr(err.msg, what), "%s", err.msg);
}

START_TEST(pc2_damaged_files_are_refused_by_name)
{
    enum { N = 6, SAMPLES = 4 };
    const char *dir = tu_temp_dir(0);
    char good[1100], bad[1100];
    snprintf(good, sizeof good, "%s/good.pc2", dir);
    snprintf(bad, sizeof bad, "%s/bad.pc2", dir);
    double x[3 * N];
    write_cache(good, N, SAMPLES, x);
    FILE *f = fopen(good, "rb");
    unsigned char bytes[32 + 12 * N * SAMPLES + 12 * N];
    size_t len = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    ck_assert_int_eq(len, 32 + 12 * N * SAMPLES);

    put_bytes(bad, bytes, len - 1); /* the last sample cut by a byte */
    refused(bad, "truncated");
    put_bytes(bad, bytes, 20);      /* the header cut */
    refused(bad, "truncated header");
    put_bytes(bad, bytes, 0);
    refused(bad, "not a PC2");

    unsigned char copy[sizeof bytes];
    memcpy(copy, bytes, len);
    copy[3] = 'X';                  /* the signature */
    put_bytes(bad, copy, len);
    refused(bad, "not a PC2");
    memcpy(copy, bytes, len);
    copy[12] = 2;                   /* version 2 */
    put_bytes(bad, copy, len);
    refused(bad, "version 2");
    memcpy(copy, bytes, len);
    copy[31] = 0x80;                /* numSamples < 0 */
    put_bytes(bad, copy, len);
    refused(bad, "negative");
    memcpy(copy, bytes, len);
    memset(copy + 16, 0, 4);        /* numPoints 0 */
    put_bytes(bad, copy, len);
    refused(bad, "numPoints");
    memcpy(copy, bytes, len);
    memset(copy + 24, 0, 4);        /* sampleRate 0 */
    put_bytes(bad, copy, len);
    refused(bad, "sampleRate");
    memcpy(copy, bytes, len);
    copy[28] = SAMPLES + 1;         /* claims a sample it does not hold */
    put_bytes(bad, copy, len);
    refused(bad, "truncated");
    memcpy(copy, bytes, len);
    memset(copy + len, 0, 12 * N);  /* a whole sample the header does not count */
    put_bytes(bad, copy, len + 12 * N);
    refused(bad, "after the");

    cloth_pc2 *r;
    cloth_error err;
    ck_assert_int_eq(cloth_pc2_open("/nonexistent/x.pc2", &r, &err), CLOTH_EIO);
    ck_assert(strstr(err.msg, "/nonexistent/x.pc2"));
}
END_TEST

/* cloth run --record: one sample a frame, frame 0 first, the last one the positions of
 * final.obj rounded to float; cloth.obj has the mesh's vertices and faces. */
START_TEST(run_record_writes_every_frame)
{
    const char *dir = tu_temp_dir(1);
    char args[1024], out[4096];
    snprintf(args, sizeof args, "run ../experiments/hanging.ini --set run.frames=12 "
             "--set run.kernel=pbd --record --out %s", dir);
    ck_assert_msg(tu_run_cli(args, out, sizeof out) == 0, "%s", out);
    char path[1100];
    snprintf(path, sizeof path, "%s/cloth.pc2", dir);
    cloth_pc2 *r;
    cloth_error err;
    ck_assert_msg(cloth_pc2_open(path, &r, &err) == CLOTH_OK, "%s", err.msg);
    cloth_pc2_info info;
    cloth_pc2_header(r, &info);
    ck_assert_int_eq(info.samples, 13);
    ck_assert(info.start_frame == 0.0f && info.sample_rate == 1.0f);

    char *final = tu_slurp(dir, "final.obj"), *topo = tu_slurp(dir, "cloth.obj");
    ck_assert(final && topo);
    int n = info.points, faces = 0, verts = 0;
    float *last = malloc(sizeof(float) * 3 * (size_t)n);
    float *first = malloc(sizeof(float) * 3 * (size_t)n);
    ck_assert(cloth_pc2_sample(r, info.samples - 1, last, &err) == CLOTH_OK);
    ck_assert(cloth_pc2_sample(r, 0, first, &err) == CLOTH_OK);
    const char *p = final;
    for (int i = 0; (p = strstr(p, "\nv ")); i++) {
        double v[3];
        ck_assert(sscanf(p + 3, "%lf %lf %lf", &v[0], &v[1], &v[2]) == 3);
        for (int k = 0; k < 3; k++)
            ck_assert(last[3 * i + k] == (float)v[k]);
        verts++;
        p++;
    }
    ck_assert_int_eq(verts, n);
    /* cloth.obj: the topology at frame 0, so sample 0 is its vertices */
    verts = 0;
    for (p = topo; (p = strchr(p, '\n')); p++) {
        double v[3];
        if (sscanf(p + 1, "v %lf %lf %lf", &v[0], &v[1], &v[2]) == 3) {
            for (int k = 0; k < 3; k++)
                ck_assert(first[3 * verts + k] == (float)v[k]);
            verts++;
        }
        faces += strncmp(p + 1, "f ", 2) == 0;
    }
    ck_assert_int_eq(verts, n);
    ck_assert_int_gt(faces, 0);
    free(first);
    free(last);
    free(final);
    free(topo);
    cloth_pc2_close(r);
}
END_TEST

/* The cape on the turning mannequin, short and with a coarse field (the test is about
 * the recording, not the collision), and the sets that make it so. */
static const char *const cape_sets[] = {"run.frames=6", "avatar.sdf_resolution=32",
                                        "run.kernel=pbd"};

static cloth_sim *scene_sim(const char *path, const char *const *sets, int n_sets)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_load(path, &s, &err) == CLOTH_OK, "%s", err.msg);
    for (int i = 0; i < n_sets; i++)
        ck_assert_msg(cloth_scene_set(&s, sets[i], i + 1, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* Reads a 32-bit little-endian field of the PC2 header (the format: "POINTCACHE2\0",
 * int32 version, int32 points, float32 start frame, float32 sample rate, int32
 * samples). */
static unsigned le32(const unsigned char *b)
{
    return b[0] | (unsigned)b[1] << 8 | (unsigned)b[2] << 16 | (unsigned)b[3] << 24;
}

/* cloth run --record with an [avatar]: body.pc2 holds one sample a frame, each the
 * avatar's surface skinned to that frame's pose (cloth_avatar_surface of a sim stepped to
 * the same frame) rounded to float, and body.obj its triangles at frame 0. */
START_TEST(run_record_writes_the_body)
{
    const char *dir = tu_temp_dir(7);
    char args[1024], out[4096];
    snprintf(args, sizeof args, "run ../experiments/avatar_cape.ini --set %s --set %s --set %s "
             "--record --out %s", cape_sets[0], cape_sets[1], cape_sets[2], dir);
    ck_assert_msg(tu_run_cli(args, out, sizeof out) == 0, "%s", out);

    cloth_sim *sim = scene_sim("../experiments/avatar_cape.ini", cape_sets, 3);
    cloth_avatar *av = cloth_sim_avatar(sim);
    ck_assert(av);
    const int *tris;
    int n_tris, n = cloth_avatar_surface_size(av, &tris, &n_tris);
    ck_assert_int_gt(n, 0);

    /* the header, byte by byte, and the file's size: header plus samples, nothing else */
    char path[1100];
    snprintf(path, sizeof path, "%s/body.pc2", dir);
    FILE *f = fopen(path, "rb");
    ck_assert(f);
    unsigned char head[32];
    ck_assert_int_eq(fread(head, 1, 32, f), 32);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    ck_assert(memcmp(head, "POINTCACHE2\0", 12) == 0);
    ck_assert_uint_eq(le32(head + 12), 1);
    ck_assert_uint_eq(le32(head + 16), (unsigned)n);
    float start, rate;
    unsigned bits = le32(head + 20);
    memcpy(&start, &bits, 4);
    bits = le32(head + 24);
    memcpy(&rate, &bits, 4);
    ck_assert(start == 0.0f && rate == 1.0f);
    ck_assert_uint_eq(le32(head + 28), 7);
    ck_assert_int_eq(size, 32 + 12L * n * 7);

    cloth_pc2 *r;
    cloth_error err;
    ck_assert_msg(cloth_pc2_open(path, &r, &err) == CLOTH_OK, "%s", err.msg);
    double *x = malloc(sizeof(double) * 3 * (size_t)n);
    float *got = malloc(sizeof(float) * 3 * (size_t)n), *first = malloc(sizeof(float) * 3 * (size_t)n);
    ck_assert(x && got && first);
    cloth_frame fr;
    for (int k = 0; k < 7; k++) {
        if (k > 0)
            ck_assert_msg(cloth_sim_frame(sim, &fr, &err) == CLOTH_OK, "%s", err.msg);
        cloth_avatar_surface(av, x);
        ck_assert(cloth_pc2_sample(r, k, got, &err) == CLOTH_OK);
        for (int i = 0; i < 3 * n; i++)
            ck_assert_msg(got[i] == (float)x[i], "frame %d, coordinate %d: %.9g in the file, "
                          "%.9g posed", k, i, got[i], x[i]);
        if (k == 0)
            memcpy(first, got, sizeof(float) * 3 * (size_t)n);
    }
    /* the body turned: the last sample is not the first (the test can tell frames apart) */
    double moved = 0;
    for (int i = 0; i < 3 * n; i++)
        moved = fmax(moved, fabs((double)got[i] - first[i]));
    ck_assert_msg(moved > 1e-3, "largest move %g m", moved);

    /* body.obj: the surface's vertices at frame 0 and its triangles, 1-based */
    char *topo = tu_slurp(dir, "body.obj");
    ck_assert(topo);
    int verts = 0, faces = 0;
    for (const char *p = topo; (p = strchr(p, '\n')); p++) {
        double v[3];
        int a, b, c;
        if (sscanf(p + 1, "v %lf %lf %lf", &v[0], &v[1], &v[2]) == 3) {
            for (int k = 0; k < 3; k++)
                ck_assert(first[3 * verts + k] == (float)v[k]);
            verts++;
        } else if (sscanf(p + 1, "f %d %d %d", &a, &b, &c) == 3) {
            ck_assert(a == tris[3 * faces] + 1 && b == tris[3 * faces + 1] + 1 &&
                      c == tris[3 * faces + 2] + 1);
            faces++;
        }
    }
    ck_assert_int_eq(verts, n);
    ck_assert_int_eq(faces, n_tris);
    free(topo);
    free(x);
    free(got);
    free(first);
    cloth_pc2_close(r);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------------------ events files */

/* Loading text must fail with CLOTH_EPARSE at "FILE:LINE:" saying what. */
static void bad_events(const char *text, int line, const char *what)
{
    const char *path = tu_temp_file("bad.jsonl", text);
    cloth_events *ev = (cloth_events *)1;
    cloth_error err;
    ck_assert_int_eq(cloth_events_load(path, &ev, &err), CLOTH_EPARSE);
    ck_assert(ev == NULL);
    char where[1200];
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    ck_assert_msg(strncmp(err.msg, where, strlen(where)) == 0 && strstr(err.msg, what),
                  "%s (want %s... %s)", err.msg, where, what);
}

#define HEAD "{\"clothbench\":\"events\",\"version\":1,\"scene\":\"s.ini\",\"sets\":[]}\n"

START_TEST(events_bad_lines_name_file_and_line)
{
    bad_events("", 1, "empty");
    bad_events("{\"frame\":0,\"op\":\"reset\"}\n", 1, "header");
    bad_events("{\"clothbench\":\"events\",\"version\":2,\"scene\":\"s\",\"sets\":[]}\n", 1,
               "version 2");
    bad_events(HEAD "not json\n", 2, "not JSON: cJSON stopped at column 1 (\"not json\")");
    bad_events(HEAD "\n", 2, "an empty line");
    bad_events(HEAD "{\"frame\":0,\"op\":\"fly\"}\n", 2, "unknown op \"fly\"");
    bad_events(HEAD "{\"frame\":0,\"op\":\"reset\",\"wind\":1}\n", 2, "unknown key \"wind\"");
    bad_events(HEAD "{\"frame\":0,\"op\":\"set\"}\n", 2, "needs \"assignment\"");
    bad_events(HEAD "{\"frame\":0,\"op\":\"reset\",\"vertex\":1}\n", 2, "takes no \"vertex\"");
    bad_events(HEAD "{\"frame\":0,\"op\":\"drag\",\"origin\":[0,0],\"dir\":[0,0,1]}\n", 2,
               "\"origin\" must be [x,y,z], three finite numbers");
    bad_events(HEAD "{\"frame\":0,\"op\":\"grab\",\"origin\":[0,0,0],\"dir\":[0,0,1],"
               "\"radius\":0}\n", 2, "radius");
    bad_events(HEAD "{\"frame\":0,\"op\":\"pin\",\"vertex\":1.5,\"on\":true}\n", 2, "vertex");
    bad_events(HEAD "{\"frame\":0,\"op\":\"pin\",\"vertex\":1,\"on\":1}\n", 2, "true or false");
    bad_events(HEAD "{\"frame\":-1,\"op\":\"reset\"}\n", 2, "whole number");
    bad_events(HEAD "{\"frame\":5,\"op\":\"reset\"}\n{\"frame\":4,\"op\":\"reset\"}\n", 3,
               "must not go back");
    bad_events(HEAD "{\"frame\":5,\"op\":\"end\"}\n{\"frame\":5,\"op\":\"reset\"}\n", 3,
               "after the \"end\"");
    /* an unterminated string: cJSON stops just inside it */
    bad_events(HEAD "{\"frame\":0,\"op\":\"set\",\"assignment\":\"a=1}\n", 2,
               "not JSON: cJSON stopped at column 37 (\"a=1}\")");
    bad_events(HEAD "{\"frame\":0,\"frame\":1,\"op\":\"reset\"}\n", 2, "twice");
    bad_events(HEAD "{\"frame\":0,\"op\":\"reset\"} x\n", 2, "text after");
    bad_events(HEAD "{\"frame\":1e999,\"op\":\"reset\"}\n", 2, "finite number");
    bad_events(HEAD "{\"frame\":0,\"op\":\"ik\",\"joint\":\"l_wrist\",\"chain\":2}\n", 2,
               "op \"ik\" needs \"target\"");
    bad_events(HEAD "{\"frame\":0,\"op\":\"ik\",\"joint\":\"l_wrist\",\"target\":[0,1,0],"
                    "\"chain\":0}\n", 2, "\"chain\" must be a whole number");
    bad_events(HEAD "{\"frame\":0,\"op\":\"ik\",\"joint\":\"l_wrist\",\"target\":[0,1,0],"
                    "\"chain\":2,\"vertex\":1}\n", 2, "op \"ik\" takes no \"vertex\"");
}
END_TEST

/* Lines cJSON parses but the format refuses, and lines it cannot parse: the message says
 * which, and where cJSON stopped. */
START_TEST(events_bad_json_names_what_and_where)
{
    bad_events(HEAD "{\"frame\":0,\n", 2, "not JSON: cJSON stopped at column 11 (\",\")");
    bad_events(HEAD "{\"frame\":0,\"op\":\"reset\",}\n", 2, "stopped at column 25 (\"}\")");
    bad_events(HEAD "{\"frame\":0x1,\"op\":\"reset\"}\n", 2, "stopped at column 11");
    /* counts past an int are refused before they are converted */
    bad_events(HEAD "{\"frame\":0,\"op\":\"pin\",\"vertex\":1e30,\"on\":true}\n", 2,
               "\"vertex\" must be a vertex index");
    bad_events(HEAD "{\"frame\":0,\"op\":\"ik\",\"joint\":\"l_wrist\",\"target\":[0,1,0],"
                    "\"chain\":7e36}\n", 2, "\"chain\" must be a whole number");
    bad_events(HEAD "[1,2]\n", 2, "not a JSON object");
    bad_events(HEAD "{}\n", 2, "an empty object");
    bad_events(HEAD "  \t\n", 2, "an empty line");
    bad_events(HEAD "{\"frame\":\"0\",\"op\":\"reset\"}\n", 2, "\"frame\" must be a finite number");
    bad_events(HEAD "{\"frame\":0,\"op\":5}\n", 2, "\"op\" must be a string");
    bad_events(HEAD "{\"frame\":0,\"op\":\"set\",\"assignment\":7}\n", 2,
               "\"assignment\" must be a string");
    bad_events(HEAD "{\"frame\":0,\"op\":\"drag\",\"origin\":[0,0,null],\"dir\":[0,0,1]}\n", 2,
               "\"origin\" must be [x,y,z]");
    bad_events("{\"clothbench\":\"events\",\"version\":1,\"scene\":\"s\",\"sets\":[\"a=1\",2]}\n",
               1, "\"sets\" must be an array of strings");
    bad_events("{\"clothbench\":\"events\",\"version\":1,\"scene\":\"s\",\"sets\":\"a=1\"}\n",
               1, "\"sets\" must be an array of strings");

    /* a NUL byte is refused, not read as the end of the line */
    const char *path = tu_temp_file("nul.jsonl", "");
    FILE *f = fopen(path, "wb");
    ck_assert(f);
    static const char nul_line[] = HEAD "{\"frame\":0,\"op\":\"reset\"}\0x\n";
    ck_assert(fwrite(nul_line, 1, sizeof nul_line - 1, f) == sizeof nul_line - 1);
    ck_assert(fclose(f) == 0);
    cloth_events *ev;
    cloth_error err;
    ck_assert_int_eq(cloth_events_load(path, &ev, &err), CLOTH_EPARSE);
    ck_assert_msg(strstr(err.msg, ":2: a NUL byte in the line"), "%s", err.msg);
}
END_TEST

/* Lines of any length read (a header with many long --set overrides is longer than the
 * 4096 bytes the reader once took), and \u escapes read as UTF-8. */
START_TEST(events_long_lines_and_unicode_escapes_read)
{
    size_t size = 64 * 1024;
    char *text = malloc(size);
    ck_assert(text);
    int n = snprintf(text, size, "{\"clothbench\":\"events\",\"version\":1,\"scene\":\"s.ini\","
                                 "\"sets\":[");
    for (int i = 0; i < 40; i++)
        n += snprintf(text + n, size - (size_t)n, "%s\"world.wind=%d %0200d\"", i ? "," : "",
                      i, 0);
    snprintf(text + n, size - (size_t)n, "]}\n{\"frame\":1,\"op\":\"set\","
             "\"assignment\":\"a=\\u00e9\\u0041\"}\n");
    const char *path = tu_temp_file("long.jsonl", text);
    free(text);
    cloth_events *ev;
    cloth_error err;
    ck_assert_msg(cloth_events_load(path, &ev, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(cloth_events_sets(ev), 40);
    ck_assert_int_eq((int)strlen(cloth_events_set(ev, 39)), 214);
    ck_assert_str_eq(cloth_events_input(ev, 0)->assignment, "a=\xc3\xa9" "A");
    cloth_events_destroy(ev);
}
END_TEST

/* What a session writes reads back as the same inputs, in order, with their frames. */
START_TEST(events_escape_and_read_back)
{
    const char *path = tu_temp_file("ok.jsonl",
        "{\"clothbench\":\"events\",\"version\":1,\"scene\":\"a \\\"b\\\"\\\\c.ini\","
        "\"sets\":[\"run.kernel=pbd\",\"world.wind=1 0 0\"]}\n"
        "{\"frame\":0,\"op\":\"grab\",\"origin\":[0.1,-2e-3,3],\"dir\":[0,0,-1],\"radius\":0.02}\n"
        "{\"op\":\"drag\",\"frame\":2,\"dir\":[0,0,-1],\"origin\":[0.25,0,3]}\n"
        "{\"frame\":2,\"op\":\"pin\",\"vertex\":7,\"on\":false}\n"
        "{\"frame\":9,\"op\":\"end\"}\n");
    cloth_events *ev;
    cloth_error err;
    ck_assert_msg(cloth_events_load(path, &ev, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_str_eq(cloth_events_scene(ev), "a \"b\"\\c.ini");
    ck_assert_int_eq(cloth_events_sets(ev), 2);
    ck_assert_str_eq(cloth_events_set(ev, 1), "world.wind=1 0 0");
    ck_assert_int_eq(cloth_events_count(ev), 3);
    ck_assert_int_eq(cloth_events_frames(ev), 9);
    const cloth_input *g = cloth_events_input(ev, 0), *d = cloth_events_input(ev, 1),
                      *p = cloth_events_input(ev, 2);
    ck_assert(g->kind == CLOTH_INPUT_GRAB && g->origin[1] == -2e-3 && g->radius == 0.02);
    ck_assert(d->kind == CLOTH_INPUT_DRAG && d->frame == 2 && d->origin[0] == 0.25);
    ck_assert(p->kind == CLOTH_INPUT_PIN && p->vertex == 7 && !p->on && p->line == 4);
    cloth_events_destroy(ev);
}
END_TEST

START_TEST(cli_replay_bad_line_exits_2)
{
    const char *path = tu_temp_file("cli.jsonl", HEAD "{\"frame\":0,\"op\":\"jump\"}\n");
    char args[1024], out[4096];
    snprintf(args, sizeof args, "replay %s --out %s", path, tu_temp_dir(2));
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 2);
    char where[1100];
    snprintf(where, sizeof where, "cloth: %s:2: ", path);
    ck_assert_msg(strstr(out, where), "%s", out);
}
END_TEST

/* ------------------------------------------------------------ replay */

/* The hanging scene, short, with pbd (fast) and the overrides in sets. */
static cloth_sim *hanging_sim(const char *const *sets, int n_sets)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_load("../experiments/hanging.ini", &s, &err) == CLOTH_OK);
    for (int i = 0; i < n_sets; i++)
        ck_assert_msg(cloth_scene_set(&s, sets[i], i + 1, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

static void input_ok(cloth_session *ss, const cloth_input *in, int *vertex)
{
    cloth_error err;
    ck_assert_msg(cloth_session_input(ss, in, vertex, &err) == CLOTH_OK, "%s", err.msg);
}

static void frames(cloth_session *ss, int n)
{
    cloth_frame f;
    cloth_error err;
    for (int k = 0; k < n; k++)
        ck_assert_msg(cloth_session_frame(ss, &f, &err) == CLOTH_OK, "%s", err.msg);
}

/* A scripted viewer session through the library's entry points: sliders, a grab of the
 * bottom corner dragged sideways over several frames, a release, a pin, a kernel
 * switch, a reset; inputs between frames and several at one frame boundary. */
static void scripted_session(const char *dir)
{
    static const char *const sets[] = {"run.kernel=pbd", "run.frames=5"};
    cloth_sim *sim = hanging_sim(sets, 2);
    cloth_session *ss;
    cloth_error err;
    ck_assert_msg(cloth_session_open(sim, dir, "../experiments/hanging.ini", sets, 2, &ss,
                                     &err) == CLOTH_OK, "%s", err.msg);
    frames(ss, 3);
    cloth_input wind = {.kind = CLOTH_INPUT_SET, .assignment = "world.wind=3 0 1"};
    input_ok(ss, &wind, NULL);
    frames(ss, 4);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions(sim);
    int corner = m->n - 1, vertex;
    cloth_input grab = {.kind = CLOTH_INPUT_GRAB, .dir = {0, 0, -1}, .radius = 0.02};
    grab.origin[0] = x[3 * corner];
    grab.origin[1] = x[3 * corner + 1];
    grab.origin[2] = x[3 * corner + 2] + 2;
    input_ok(ss, &grab, &vertex);
    ck_assert_int_eq(vertex, corner);
    cloth_input drag = grab;
    drag.kind = CLOTH_INPUT_DRAG;
    for (int k = 1; k <= 5; k++) {
        drag.origin[0] = grab.origin[0] + 0.04 * k;
        drag.origin[1] = grab.origin[1] + 0.01 * k;
        input_ok(ss, &drag, NULL);
        frames(ss, 2);
    }
    cloth_input release = {.kind = CLOTH_INPUT_RELEASE};
    cloth_input pin = {.kind = CLOTH_INPUT_PIN, .vertex = 0, .on = 0};
    cloth_input stiff = {.kind = CLOTH_INPUT_SET, .assignment = "material.k_structural=900"};
    input_ok(ss, &release, NULL);
    input_ok(ss, &pin, NULL);
    input_ok(ss, &stiff, NULL);
    frames(ss, 6);
    cloth_input kernel = {.kind = CLOTH_INPUT_SET, .assignment = "run.kernel=verlet"};
    input_ok(ss, &kernel, NULL);
    frames(ss, 5);
    cloth_input reset = {.kind = CLOTH_INPUT_RESET};
    input_ok(ss, &reset, NULL);
    frames(ss, 4);
    /* refused inputs leave no line */
    cloth_input wrong = {.kind = CLOTH_INPUT_SET, .assignment = "mesh.nx=3"};
    ck_assert(cloth_session_input(ss, &wrong, NULL, &err) == CLOTH_EINVAL);
    ck_assert_msg(cloth_session_close(ss, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim_destroy(sim);
}

/* cloth_events_load, then a run with the events into out. */
static void replay(const char *events_path, const char *out)
{
    cloth_events *ev;
    cloth_error err;
    ck_assert_msg(cloth_events_load(events_path, &ev, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_str_eq(cloth_events_scene(ev), "../experiments/hanging.ini");
    const char *sets[8];
    int n = cloth_events_sets(ev);
    for (int i = 0; i < n; i++)
        sets[i] = cloth_events_set(ev, i);
    cloth_sim *sim = hanging_sim(sets, n);
    cloth_output_def def;
    cloth_default_output_def(&def);
    def.events = ev;
    cloth_summary s;
    ck_assert_msg(cloth_run_sim_with(sim, out, &def, &s, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(s.status, CLOTH_RUN_OK);
    ck_assert_int_eq(s.frames, cloth_events_frames(ev));
    cloth_sim_destroy(sim);
    cloth_events_destroy(ev);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

START_TEST(replay_gives_the_session_series_apart_from_wall_ms)
{
    const char *live = tu_temp_dir(3), *a = tu_temp_dir(4), *b = tu_temp_dir(5);
    scripted_session(live);
    char events[1100];
    snprintf(events, sizeof events, "%s/events.jsonl", live);
    char *text = tu_read_file(events);
    ck_assert(text);
    ck_assert_int_eq(count_lines(text), 1 + 1 + 1 + 5 + 3 + 1 + 1 + 1); /* head .. end */
    ck_assert(strstr(text, "{\"frame\":32,\"op\":\"end\"}\n"));
    free(text);
    replay(events, a);
    replay(events, b);
    char *ts = tu_slurp(live, "series.csv"), *ta = tu_slurp(a, "series.csv"),
         *tb = tu_slurp(b, "series.csv");
    ck_assert(ts && ta && tb);
    ck_assert_int_eq(count_lines(ts), 1 + 1 + 32);
    tu_drop_last_column(ts);
    tu_drop_last_column(ta);
    tu_drop_last_column(tb);
    ck_assert(strcmp(ts, ta) == 0);
    ck_assert(strcmp(ta, tb) == 0);
    free(ts);
    free(ta);
    free(tb);
    /* the inputs mattered: without them the run is another one */
    cloth_sim *sim = hanging_sim((const char *const[]){"run.kernel=pbd", "run.frames=32"}, 2);
    cloth_error err;
    ck_assert(cloth_run_sim(sim, b, NULL, NULL, &err) == CLOTH_OK);
    cloth_sim_destroy(sim);
    ta = tu_slurp(a, "series.csv");
    tb = tu_slurp(b, "series.csv");
    tu_drop_last_column(ta);
    tu_drop_last_column(tb);
    ck_assert_int_eq(count_lines(ta), count_lines(tb));
    ck_assert(strcmp(ta, tb) != 0);
    free(ta);
    free(tb);
}
END_TEST

/* IK inputs (the viewer pulling a hand): a session on the cape calls the avatar's IK on
 * the left wrist once a frame for ten frames, as the viewer's clock does while a hand is
 * dragged, then lets the cloth run; events.jsonl holds the ten "ik" lines with their
 * frames, and the replay gives the session's series.csv again, apart from wall_ms.
 * Without those lines the run is another one (the pose stops following the clip). */
START_TEST(replay_of_ik_inputs_gives_the_session_series)
{
    /* blend_in = 0: the turn from frame 0, so that stopping it by IK shows in the cape
     * (in the 0.75 s blend-in from the rest pose the chest, which the pins follow, and the
     * cape stay the same with or without the arm's IK) */
    static const char *const sets[] = {"run.kernel=pbd", "avatar.sdf_resolution=32",
                                       "avatar.blend_in=0"};
    const char *live = tu_temp_dir(3), *a = tu_temp_dir(4), *b = tu_temp_dir(5);
    cloth_sim *sim = scene_sim("../experiments/avatar_cape.ini", sets, 3);
    cloth_session *ss;
    cloth_error err;
    ck_assert_msg(cloth_session_open(sim, live, "../experiments/avatar_cape.ini", sets, 2, &ss,
                                     &err) == CLOTH_OK, "%s", err.msg);
    frames(ss, 3);
    double w0[3], w1[3];
    ck_assert(cloth_avatar_joint(cloth_sim_avatar(sim), "l_wrist", w0, &err) == CLOTH_OK);
    cloth_input ik = {.kind = CLOTH_INPUT_IK, .joint = "l_wrist", .chain = 2};
    for (int k = 0; k < 3; k++)
        ik.target[k] = w0[k] + (k == 1 ? 0.3 : k == 2 ? 0.1 : 0);
    for (int k = 0; k < 10; k++) {
        input_ok(ss, &ik, NULL);
        frames(ss, 1);
    }
    ck_assert(cloth_avatar_joint(cloth_sim_avatar(sim), "l_wrist", w1, &err) == CLOTH_OK);
    double d0 = 0, d1 = 0;
    for (int k = 0; k < 3; k++) {
        d0 += (ik.target[k] - w0[k]) * (ik.target[k] - w0[k]);
        d1 += (ik.target[k] - w1[k]) * (ik.target[k] - w1[k]);
    }
    ck_assert_msg(sqrt(d1) < sqrt(d0) - 0.05, "the wrist came %g -> %g m from the target",
                  sqrt(d0), sqrt(d1));
    frames(ss, 8);
    ck_assert_msg(cloth_session_close(ss, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim_destroy(sim);

    char events[1100];
    snprintf(events, sizeof events, "%s/events.jsonl", live);
    char *text = tu_read_file(events);
    ck_assert(text);
    int lines = 0;
    for (const char *p = text; (p = strstr(p, "\"op\":\"ik\",\"joint\":\"l_wrist\"")); p++)
        lines++;
    ck_assert_int_eq(lines, 10);
    ck_assert(strstr(text, "{\"frame\":3,\"op\":\"ik\""));
    ck_assert(strstr(text, "{\"frame\":12,\"op\":\"ik\""));
    ck_assert(strstr(text, "{\"frame\":21,\"op\":\"end\"}\n"));
    free(text);
    for (int pass = 0; pass < 2; pass++) {
        cloth_events *ev;
        ck_assert_msg(cloth_events_load(events, &ev, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_int_eq(cloth_events_count(ev), 10);
        ck_assert(cloth_events_input(ev, 0)->kind == CLOTH_INPUT_IK &&
                  cloth_events_input(ev, 0)->chain == 2 &&
                  memcmp(cloth_events_input(ev, 0)->target, ik.target, sizeof ik.target) == 0);
        cloth_sim *again = scene_sim("../experiments/avatar_cape.ini", sets, 3);
        cloth_output_def def;
        cloth_default_output_def(&def);
        def.events = ev;
        ck_assert_msg(cloth_run_sim_with(again, pass ? b : a, &def, NULL, &err) == CLOTH_OK,
                      "%s", err.msg);
        cloth_sim_destroy(again);
        cloth_events_destroy(ev);
    }
    char *ts = tu_slurp(live, "series.csv"), *ta = tu_slurp(a, "series.csv"),
         *tb = tu_slurp(b, "series.csv");
    ck_assert(ts && ta && tb);
    ck_assert_int_eq(count_lines(ts), 1 + 1 + 21);
    tu_drop_last_column(ts);
    tu_drop_last_column(ta);
    tu_drop_last_column(tb);
    ck_assert(strcmp(ts, ta) == 0);
    ck_assert(strcmp(ta, tb) == 0);
    free(ta);
    free(tb);
    /* the same frames without the inputs */
    static const char *const plain_sets[] = {"run.kernel=pbd", "avatar.sdf_resolution=32",
                                             "avatar.blend_in=0", "run.frames=21"};
    cloth_sim *plain = scene_sim("../experiments/avatar_cape.ini", plain_sets, 4);
    ck_assert(cloth_run_sim(plain, b, NULL, NULL, &err) == CLOTH_OK);
    cloth_sim_destroy(plain);
    tb = tu_slurp(b, "series.csv");
    tu_drop_last_column(tb);
    ck_assert_int_eq(count_lines(ts), count_lines(tb));
    ck_assert(strcmp(ts, tb) != 0);
    free(ts);
    free(tb);
}
END_TEST

/* An IK line on a scene without an avatar is refused naming the line. */
START_TEST(replay_ik_without_avatar_names_the_line)
{
    const char *path = tu_temp_file("noavatar.jsonl",
        "{\"clothbench\":\"events\",\"version\":1,\"scene\":\"../experiments/hanging.ini\","
        "\"sets\":[\"run.kernel=pbd\"]}\n"
        "{\"frame\":1,\"op\":\"ik\",\"joint\":\"l_wrist\",\"target\":[0,1,0],\"chain\":2}\n");
    char args[1024], out[4096];
    snprintf(args, sizeof args, "replay %s --out %s", path, tu_temp_dir(6));
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 2);
    char where[1100];
    snprintf(where, sizeof where, "%s:2: ik: the scene has no [avatar]", path);
    ck_assert_msg(strstr(out, where), "%s", out);
}
END_TEST

/* An input the replayed sim refuses (the events file edited, or another scene) is an
 * error naming the line, not a silently different run. */
START_TEST(replay_input_refused_names_the_line)
{
    const char *path = tu_temp_file("refused.jsonl",
        "{\"clothbench\":\"events\",\"version\":1,\"scene\":\"../experiments/hanging.ini\","
        "\"sets\":[\"run.kernel=pbd\"]}\n"
        "{\"frame\":1,\"op\":\"pin\",\"vertex\":99999,\"on\":true}\n");
    char args[1024], out[4096];
    snprintf(args, sizeof args, "replay %s --out %s", path, tu_temp_dir(6));
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 2);
    char where[1100];
    snprintf(where, sizeof where, "%s:2: pin: vertex 99999", path);
    ck_assert_msg(strstr(out, where), "%s", out);
}
END_TEST

Suite *suite_record(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("pc2");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pc2_round_trip_is_bit_identical);
    tcase_add_test(tc, pc2_part_counts_only_whole_samples);
    tcase_add_test(tc, pc2_damaged_files_are_refused_by_name);
    tcase_add_test(tc, run_record_writes_every_frame);
    tcase_add_test(tc, run_record_writes_the_body);
    suite_add_tcase(s, tc);
    tc = tcase_create("events");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, events_bad_lines_name_file_and_line);
    tcase_add_test(tc, events_bad_json_names_what_and_where);
    tcase_add_test(tc, events_long_lines_and_unicode_escapes_read);
    tcase_add_test(tc, events_escape_and_read_back);
    tcase_add_test(tc, cli_replay_bad_line_exits_2);
    tcase_add_test(tc, replay_gives_the_session_series_apart_from_wall_ms);
    tcase_add_test(tc, replay_input_refused_names_the_line);
    tcase_add_test(tc, replay_of_ik_inputs_gives_the_session_series);
    tcase_add_test(tc, replay_ik_without_avatar_names_the_line);
    suite_add_tcase(s, tc);
    return s;
}
