/*
 * The viewer's transport: libwebsockets serves the page (files under web_dir) and one
 * WebSocket protocol, "cloth", on 127.0.0.1; a timer steps the sim up to max_fps times a
 * second while a page is connected.  What the messages say and do is commands.c's; here
 * they are only received, queued and sent.
 *
 * Each page has a small queue of replies; a page that floods the server loses replies,
 * never the server's time.  A page that disconnects while dragging lets its vertex go.
 * The socket listens on 127.0.0.1 only, and a WebSocket whose Origin is another web site
 * is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include "app/serve/serve.h"
#include "app/serve/commands.h"
#include "app/serve/replay.h"
#include "app/serve/stream.h"
#include "core/status.h"

#include <libwebsockets.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RX_MAX 4096         /* longest message a page may send (bytes)                 */
#define REPLY_QUEUE 32      /* queued replies per page                                 */
#define TICK_GAP_US 2000    /* the event loop's time between two frames at least (us)  */

/* ----------------------------------------------------------------- the state */

typedef struct client {
    struct lws *wsi;
    struct client *next;
    int want_hello, want_state, want_frame, want_metrics;
    int frame_sent_last;            /* 1: the last thing sent was positions            */
    unsigned char replies[REPLY_QUEUE][LWS_PRE + CLOTH__REPLY_MAX]; /* texts to send */
    size_t reply_len[REPLY_QUEUE];
    int reply_head, reply_count;
    long dropped;                   /* replies lost to a full queue                    */
    unsigned char rx[RX_MAX + 1];   /* the message being received                      */
    size_t rx_len;
    int rx_bad;                     /* 1: binary, 2: too long; refuse at its end       */
} client;

typedef struct server {
    cloth__viewer view;             /* the sim and what the pages have done to it      */
    cloth_serve_def def;
    struct lws_context *context;
    lws_sorted_usec_list_t tick;
    lws_usec_t next_tick;           /* when the next frame is due (us)                 */
    client *clients;
    int n_clients;

    unsigned char *frame_buf;       /* LWS_PRE + the binary frame                      */
    size_t frame_len;
    char metrics[LWS_PRE + 512];    /* LWS_PRE + the frame's JSON                      */
    size_t metrics_len;
    unsigned char *hello_buf;       /* LWS_PRE + hello JSON, rebuilt with the state    */
    size_t hello_len;
    unsigned char *state_buf;       /* LWS_PRE + state JSON                            */
    size_t state_len;
} server;

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

void cloth_default_serve_def(cloth_serve_def *def)
{
    def->port = 8080;
    def->web_dir = "src/app/serve/web";
    def->max_fps = 60;
    def->log = stdout;
    def->session = NULL;
    def->replay = NULL;
    def->replay_body = NULL;
    def->body_tris = NULL;
    def->body_n_tris = 0;
}

/* ----------------------------------------------------------------- sending */

static void queue_reply(client *c, const char *json)
{
    size_t len = strlen(json);
    if (len == 0)
        return;
    if (c->reply_count == REPLY_QUEUE) {
        c->dropped++;
        return;
    }
    int slot = (c->reply_head + c->reply_count) % REPLY_QUEUE;
    memcpy(c->replies[slot] + LWS_PRE, json, len); /* len < CLOTH__REPLY_MAX */
    c->reply_len[slot] = len;
    c->reply_count++;
    lws_callback_on_writable(c->wsi);
}

/* Copies text (then frees it) into *buf after LWS_PRE bytes; 0 on success. */
static int take_text(char *text, unsigned char **buf, size_t *len)
{
    if (!text)
        return -1;
    size_t n = strlen(text);
    unsigned char *grown = realloc(*buf, LWS_PRE + n + 1);
    if (grown) {
        memcpy(grown + LWS_PRE, text, n + 1);
        *buf = grown;
        *len = n;
    }
    cJSON_free(text);
    return grown ? 0 : -1;
}

/* Rebuilds the state message and asks every page to take it. */
static void state_changed(server *s)
{
    if (take_text(cloth__viewer_state(&s->view), &s->state_buf, &s->state_len) != 0)
        return;
    for (client *c = s->clients; c; c = c->next) {
        c->want_state = 1;
        lws_callback_on_writable(c->wsi);
    }
}

/* The binary frame and, with f, its metrics, for every page. */
static void frame_ready(server *s, const cloth_frame *f)
{
    cloth__viewer_positions(&s->view, (float *)(s->frame_buf + LWS_PRE));
    if (f)
        s->metrics_len = cloth__viewer_metrics(&s->view, f, s->metrics + LWS_PRE,
                                               sizeof s->metrics - LWS_PRE);
    for (client *c = s->clients; c; c = c->next) {
        /* a diverged state (NaN, or beyond run.blowup_limit) is not worth drawing: the
         * page keeps the last frame until Reset */
        c->want_frame = !s->view.diverged;
        c->want_metrics = f != NULL;
        lws_callback_on_writable(c->wsi);
    }
}

/* What a command asks of the pages: its reply to the sender (or, with from NULL, to
 * every page), then the state and positions to all. */
static void deliver(server *s, client *from, const cloth__reply *r)
{
    if (from)
        queue_reply(from, r->text);
    else
        for (client *c = s->clients; c; c = c->next)
            queue_reply(c, r->text);
    if (r->positions_changed)
        frame_ready(s, NULL);
    if (r->state_changed)
        state_changed(s);
}

/* --------------------------------------------------------------- the clock */

static void tick(lws_sorted_usec_list_t *sul)
{
    server *s = lws_container_of(sul, server, tick);
    lws_usec_t period = (lws_usec_t)(1e6 / s->def.max_fps);
    if (s->n_clients > 0) {
        cloth_frame f;
        cloth__reply r;
        cloth__viewer_step(&s->view, &f, &r);
        deliver(s, NULL, &r);
        frame_ready(s, &f);
    }
    /* keep the rhythm, but leave the event loop at least TICK_GAP_US before the next
     * frame even when this one took longer than the period: a page needs two writable
     * turns per frame (positions, metrics), and its messages must get in */
    lws_usec_t now = lws_now_usecs();
    s->next_tick += period;
    if (s->next_tick < now + TICK_GAP_US)
        s->next_tick = now + TICK_GAP_US;
    lws_sul_schedule(s->context, 0, &s->tick, tick, s->next_tick - now);
}

/* ------------------------------------------------------- the lws callback */

static int send_text(struct lws *wsi, unsigned char *buf, size_t len)
{
    return lws_write(wsi, buf + LWS_PRE, len, LWS_WRITE_TEXT) < (int)len ? -1 : 0;
}

/* One message a writable turn, in this order: hello, replies, state, then positions
 * and metrics taking turns so that neither starves when frames come faster than the
 * page's socket turns. */
static int on_writable(server *s, client *c)
{
    int rc = 0;
    if (c->want_hello) {
        c->want_hello = 0;
        c->want_state = 0; /* the hello holds the state */
        if (take_text(cloth__viewer_hello(&s->view, s->def.max_fps), &s->hello_buf,
                      &s->hello_len) == 0)
            rc = send_text(c->wsi, s->hello_buf, s->hello_len);
    } else if (c->reply_count > 0) {
        int slot = c->reply_head;
        c->reply_head = (c->reply_head + 1) % REPLY_QUEUE;
        c->reply_count--;
        rc = send_text(c->wsi, c->replies[slot], c->reply_len[slot]);
        if (c->reply_count == 0 && c->dropped > 0) {
            char note[128];
            snprintf(note, sizeof note, "{\"type\":\"error\",\"message\":\"%ld replies were "
                     "dropped: too many messages at once\"}", c->dropped);
            c->dropped = 0;
            queue_reply(c, note);
        }
    } else if (c->want_state && s->state_buf) {
        c->want_state = 0;
        rc = send_text(c->wsi, s->state_buf, s->state_len);
    } else if (c->want_frame && !(c->want_metrics && c->frame_sent_last)) {
        c->want_frame = 0;
        c->frame_sent_last = 1;
        if (lws_write(c->wsi, s->frame_buf + LWS_PRE, s->frame_len, LWS_WRITE_BINARY) <
            (int)s->frame_len)
            rc = -1;
    } else if (c->want_metrics) {
        c->want_metrics = 0;
        c->frame_sent_last = 0;
        rc = send_text(c->wsi, (unsigned char *)s->metrics, s->metrics_len);
    }
    if (rc == 0 && (c->want_hello || c->reply_count || c->want_state || c->want_frame ||
                    c->want_metrics))
        lws_callback_on_writable(c->wsi);
    return rc;
}

/* Any web page the user visits may open a WebSocket to 127.0.0.1: take only our own
 * page (or a client that sends no Origin). */
static int origin_is_ours(const server *s, struct lws *wsi)
{
    char origin[128] = "", ours[64], local[64];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return 1;
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0)
        return 0;
    snprintf(ours, sizeof ours, "http://127.0.0.1:%d", s->def.port);
    snprintf(local, sizeof local, "http://localhost:%d", s->def.port);
    return strcmp(origin, ours) == 0 || strcmp(origin, local) == 0;
}

/* A fragment of a message; a whole one goes to the commands. */
static void on_receive(server *s, client *c, struct lws *wsi, const void *in, size_t len)
{
    if (lws_is_first_fragment(wsi)) {
        c->rx_len = 0;
        c->rx_bad = 0;
    }
    if (lws_frame_is_binary(wsi))
        c->rx_bad = 1;
    else if (c->rx_len + len > RX_MAX)
        c->rx_bad = 2;
    else {
        memcpy(c->rx + c->rx_len, in, len);
        c->rx_len += len;
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
        return;
    if (c->rx_bad == 1) {
        queue_reply(c, "{\"type\":\"error\",\"message\":\"binary messages are not "
                       "understood: send JSON text\"}");
    } else if (c->rx_bad == 2) {
        char note[128];
        snprintf(note, sizeof note, "{\"type\":\"error\",\"message\":\"message longer than "
                 "%d bytes\"}", RX_MAX);
        queue_reply(c, note);
    } else {
        cloth__reply r;
        cloth__viewer_text(&s->view, c, (const char *)c->rx, c->rx_len, &r);
        deliver(s, c, &r);
    }
    c->rx_len = 0;
    c->rx_bad = 0;
}

static int callback_cloth(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                          void *in, size_t len)
{
    client *c = user;
    struct lws_context *ctx = lws_get_context(wsi);
    server *s = ctx ? lws_context_user(ctx) : NULL;
    cloth__reply r;
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return origin_is_ours(s, wsi) ? 0 : -1;
    case LWS_CALLBACK_ESTABLISHED:
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
        c->want_hello = 1;
        c->next = s->clients;
        s->clients = c;
        s->n_clients++;
        lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_CLOSED:
        for (client **p = &s->clients; *p; p = &(*p)->next)
            if (*p == c) {
                *p = c->next;
                s->n_clients--;
                break;
            }
        cloth__viewer_page_left(&s->view, c, &r);
        deliver(s, NULL, &r);
        break;
    case LWS_CALLBACK_RECEIVE:
        on_receive(s, c, wsi, in, len);
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return on_writable(s, c);
    default:
        break;
    }
    return 0;
}

/* ------------------------------------------------------------------ serving */

static const struct lws_protocols protocols[] = {
    {"http", lws_callback_http_dummy, 0, 0, 0, NULL, 0},
    {"cloth", callback_cloth, sizeof(client), RX_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static const struct lws_protocol_vhost_options mime_mjs = {NULL, NULL, ".mjs",
                                                           "text/javascript"};
static const struct lws_protocol_vhost_options mime_js = {&mime_mjs, NULL, ".js",
                                                          "text/javascript"};

/* The page's folder must hold index.html; its npm packages are only warned about. */
static cloth_status check_web_dir(const cloth_serve_def *def, cloth_error *err)
{
    char path[1200];
    struct stat st;
    snprintf(path, sizeof path, "%s/index.html", def->web_dir);
    if (stat(path, &st) != 0)
        return cloth__fail(err, CLOTH_EIO, "%s: no index.html there (give --web DIR)",
                           def->web_dir);
    snprintf(path, sizeof path, "%s/node_modules/three", def->web_dir);
    if (stat(path, &st) != 0 && def->log)
        fprintf(def->log, "cloth serve: warning: %s/node_modules is missing: run "
                "'make deps-web'\n", def->web_dir);
    return CLOTH_OK;
}

static struct lws_context *listen_on(server *s)
{
    struct lws_http_mount mount;
    memset(&mount, 0, sizeof mount);
    mount.mountpoint = "/";
    mount.mountpoint_len = 1;
    mount.origin = s->def.web_dir;
    mount.def = "index.html";
    mount.origin_protocol = LWSMPRO_FILE;
    mount.extra_mimetypes = &mime_js;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = s->def.port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.mounts = &mount; /* lws copies what it keeps */
    info.user = s;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_VALIDATE_UTF8;
    lws_set_log_level(LLL_ERR, NULL);
    return lws_create_context(&info);
}

cloth_status cloth_serve(cloth_sim *sim, const cloth_serve_def *def, cloth_error *err)
{
    cloth_status st = check_web_dir(def, err);
    if (st != CLOTH_OK)
        return st;
    if (!(def->max_fps > 0 && def->max_fps <= 1000))
        return cloth__fail(err, CLOTH_EINVAL, "max_fps must be in (0, 1000]");

    server s;
    memset(&s, 0, sizeof s);
    s.def = *def;
    if (cloth__viewer_init(&s.view, sim) != 0) {
        cloth__viewer_free(&s.view);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the body");
    }
    s.view.session = def->session;
    if (def->replay && cloth__viewer_replay(&s.view, def->replay, 1 / def->max_fps) != 0) {
        cloth__viewer_free(&s.view);
        return cloth__fail(err, CLOTH_EINVAL, "the recording does not fit the mesh (or out of "
                           "memory)");
    }
    if (def->replay && def->replay_body &&
        cloth__viewer_replay_body(&s.view, def->replay_body, def->body_tris,
                                  def->body_n_tris) != 0) {
        cloth__viewer_free(&s.view);
        return cloth__fail(err, CLOTH_EINVAL, "the body's recording does not fit the cloth's "
                           "(its samples) or its triangles (or out of memory)");
    }
    s.frame_len = sizeof(float) * cloth__viewer_frame_floats(&s.view);
    s.frame_buf = calloc(1, LWS_PRE + s.frame_len);
    if (!s.frame_buf) {
        cloth__viewer_free(&s.view);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory");
    }
    s.context = listen_on(&s);
    if (!s.context) {
        cloth__viewer_free(&s.view);
        free(s.frame_buf);
        return cloth__fail(err, CLOTH_EIO, "cannot listen on 127.0.0.1:%d (in use?)",
                           def->port);
    }
    frame_ready(&s, NULL);
    s.next_tick = lws_now_usecs();
    lws_sul_schedule(s.context, 0, &s.tick, tick, 1);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    stop_requested = 0;
    if (def->log) {
        const cloth_scene *sc = cloth_sim_scene(sim);
        if (def->replay)
            fprintf(def->log, "cloth serve: replay of %d frames of %d vertices at %g frames/s "
                    "at http://127.0.0.1:%d/\n", s.view.replay_samples, cloth_sim_mesh(sim)->n,
                    def->max_fps, def->port);
        else
            fprintf(def->log, "cloth serve: %s (%d vertices, %s kernel) at "
                    "http://127.0.0.1:%d/\n", sc->source, cloth_sim_mesh(sim)->n,
                    sc->run.kernel, def->port);
        fflush(def->log);
    }
    while (!stop_requested)
        if (lws_service(s.context, 0) < 0)
            break;
    lws_sul_schedule(s.context, 0, &s.tick, tick, LWS_SET_TIMER_USEC_CANCEL);
    lws_context_destroy(s.context);
    cloth__viewer_free(&s.view);
    free(s.frame_buf);
    free(s.hello_buf);
    free(s.state_buf);
    if (def->log) {
        fprintf(def->log, "cloth serve: stopped\n");
        fflush(def->log);
    }
    return CLOTH_OK;
}
