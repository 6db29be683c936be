/*
 * c_bot: an arena bot in C, written from docs/protocol.md alone.
 *
 * It plays any game: on every "act" it answers a legal action chosen at
 * random with a generator seeded by the "seed" of "hello", so a match
 * replays exactly.  The chosen element of "legal" is sent back as the very
 * msgpack bytes it arrived as, so a string stays a string and an integer an
 * integer.
 *
 * Wire (docs/protocol.md): every message either way is a 4-byte big-endian
 * length, then that many bytes of one msgpack map with a string key "type".
 *
 * Build:  cc -O2 -std=c99 -Wall -o c_bot c_bot.c
 * Run:    arena match farm-and-furious --bot cmd:./c_bot --bot random
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small msgpack reader: just enough to walk any value ---------------- */

typedef struct {
    const uint8_t *p;   /* next byte */
    const uint8_t *end; /* one past the last byte */
    int bad;            /* set on truncated or unknown input */
} reader;

static uint64_t be(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = (v << 8) | p[i];
    return v;
}

static const uint8_t *take(reader *r, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *at = r->p;
    r->p += n;
    return at;
}

enum kind { K_NIL, K_BOOL, K_INT, K_FLOAT, K_STR, K_BIN, K_ARRAY, K_MAP, K_EXT, K_BAD };

typedef struct {
    enum kind kind;
    int64_t i;          /* K_INT (uint64 above INT64_MAX is clamped), K_BOOL */
    const uint8_t *s;   /* K_STR, K_BIN: the bytes */
    uint32_t n;         /* K_STR, K_BIN: length; K_ARRAY, K_MAP: element count */
} head;

/* Read one value's head: scalars whole, strings as a pointer, containers as
 * their element count (the elements follow). */
static head read_head(reader *r) {
    head h = {K_BAD, 0, NULL, 0};
    const uint8_t *b = take(r, 1), *q;
    if (!b) return h;
    uint8_t c = *b;
    if (c <= 0x7f) { h.kind = K_INT; h.i = c; return h; }
    if (c >= 0xe0) { h.kind = K_INT; h.i = (int8_t)c; return h; }
    if ((c & 0xf0) == 0x80) { h.kind = K_MAP; h.n = c & 0x0f; return h; }
    if ((c & 0xf0) == 0x90) { h.kind = K_ARRAY; h.n = c & 0x0f; return h; }
    if ((c & 0xe0) == 0xa0) { h.kind = K_STR; h.n = c & 0x1f; h.s = take(r, h.n); goto check; }
    switch (c) {
    case 0xc0: h.kind = K_NIL; return h;
    case 0xc2: h.kind = K_BOOL; h.i = 0; return h;
    case 0xc3: h.kind = K_BOOL; h.i = 1; return h;
    case 0xcc: case 0xcd: case 0xce: case 0xcf: {
        int n = 1 << (c - 0xcc);
        if (!(q = take(r, n))) return h;
        uint64_t v = be(q, n);
        h.kind = K_INT; h.i = v > INT64_MAX ? INT64_MAX : (int64_t)v; return h;
    }
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
        int n = 1 << (c - 0xd0);
        if (!(q = take(r, n))) return h;
        uint64_t v = be(q, n);
        h.kind = K_INT;
        h.i = n == 1 ? (int8_t)v : n == 2 ? (int16_t)v : n == 4 ? (int32_t)v : (int64_t)v;
        return h;
    }
    case 0xca: h.kind = K_FLOAT; take(r, 4); goto check;
    case 0xcb: h.kind = K_FLOAT; take(r, 8); goto check;
    case 0xd9: case 0xda: case 0xdb:   /* str 8/16/32 */
    case 0xc4: case 0xc5: case 0xc6: { /* bin 8/16/32 */
        int n = c >= 0xd9 ? 1 << (c - 0xd9) : 1 << (c - 0xc4);
        if (!(q = take(r, n))) return h;
        h.kind = c >= 0xd9 ? K_STR : K_BIN;
        h.n = (uint32_t)be(q, n);
        h.s = take(r, h.n);
        goto check;
    }
    case 0xdc: case 0xdd: { /* array 16/32 */
        int n = c == 0xdc ? 2 : 4;
        if (!(q = take(r, n))) return h;
        h.kind = K_ARRAY; h.n = (uint32_t)be(q, n); return h;
    }
    case 0xde: case 0xdf: { /* map 16/32 */
        int n = c == 0xde ? 2 : 4;
        if (!(q = take(r, n))) return h;
        h.kind = K_MAP; h.n = (uint32_t)be(q, n); return h;
    }
    case 0xd4: h.kind = K_EXT; take(r, 2); goto check;   /* fixext 1 */
    case 0xd5: h.kind = K_EXT; take(r, 3); goto check;   /* fixext 2 */
    case 0xd6: h.kind = K_EXT; take(r, 5); goto check;   /* fixext 4 */
    case 0xd7: h.kind = K_EXT; take(r, 9); goto check;   /* fixext 8 */
    case 0xd8: h.kind = K_EXT; take(r, 17); goto check;  /* fixext 16 */
    case 0xc7: case 0xc8: case 0xc9: {                   /* ext 8/16/32 */
        int n = 1 << (c - 0xc7);
        if (!(q = take(r, n))) return h;
        h.kind = K_EXT; take(r, (size_t)be(q, n) + 1); goto check;
    }
    default: r->bad = 1; return h; /* 0xc1 is never used */
    }
check:
    if (r->bad) h.kind = K_BAD;
    return h;
}

/* Skip one whole value, containers included. */
static void skip(reader *r) {
    uint64_t pending = 1; /* values still to skip */
    while (pending && !r->bad) {
        head h = read_head(r);
        pending--;
        if (h.kind == K_ARRAY) pending += h.n;
        else if (h.kind == K_MAP) pending += 2 * (uint64_t)h.n;
    }
}

static int str_is(head h, const char *text) {
    return h.kind == K_STR && h.n == strlen(text) && memcmp(h.s, text, h.n) == 0;
}

/* ---- the wire --------------------------------------------------------------- */

static int read_exactly(uint8_t *buf, size_t n) {
    return fread(buf, 1, n, stdin) == n;
}

static void send_frame(const uint8_t *body, uint32_t n) {
    uint8_t len[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    fwrite(len, 1, 4, stdout);
    fwrite(body, 1, n, stdout);
    fflush(stdout);
}

/* msgpack writer for the two replies: a fixmap of fixstr keys */
typedef struct { uint8_t *buf; size_t len, cap; } writer;

static void put(writer *w, const void *bytes, size_t n) {
    if (w->len + n > w->cap) {
        w->cap = (w->len + n) * 2;
        w->buf = realloc(w->buf, w->cap);
        if (!w->buf) { fprintf(stderr, "c_bot: out of memory\n"); exit(1); }
    }
    memcpy(w->buf + w->len, bytes, n);
    w->len += n;
}

static void put_str(writer *w, const char *s) { /* fixstr: fewer than 32 bytes */
    uint8_t tag = 0xa0 | (uint8_t)strlen(s);
    put(w, &tag, 1);
    put(w, s, strlen(s));
}

/* ---- the bot ------------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t next_random(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int main(void) {
    uint8_t header[4];
    writer w = {NULL, 0, 0};
    while (read_exactly(header, 4)) {
        uint32_t n = (uint32_t)be(header, 4);
        uint8_t *body = malloc(n ? n : 1);
        if (!body || !read_exactly(body, n)) break;
        reader r = {body, body + n, 0};
        head top = read_head(&r);
        head type = {K_BAD, 0, NULL, 0};
        const uint8_t *legal = NULL; /* the "legal" array's first element */
        uint32_t legal_count = 0;
        if (top.kind == K_MAP) {
            for (uint32_t k = 0; k < top.n && !r.bad; k++) {
                head key = read_head(&r);
                if (str_is(key, "type")) {
                    type = read_head(&r);
                } else if (str_is(key, "seed")) {
                    head seed = read_head(&r);
                    if (seed.kind == K_INT) rng_state = (uint64_t)seed.i;
                } else if (str_is(key, "legal")) {
                    head array = read_head(&r);
                    if (array.kind == K_ARRAY) {
                        legal = r.p;
                        legal_count = array.n;
                        for (uint32_t i = 0; i < array.n; i++) skip(&r);
                    }
                } else {
                    skip(&r);
                }
            }
        }
        if (r.bad || type.kind != K_STR) {
            fprintf(stderr, "c_bot: cannot read a message of %u bytes\n", n);
            free(body);
            return 1;
        }
        w.len = 0;
        if (str_is(type, "hello")) {
            uint8_t map3 = 0x83;
            put(&w, &map3, 1);
            put_str(&w, "type"); put_str(&w, "ready");
            put_str(&w, "name"); put_str(&w, "c_bot");
            put_str(&w, "version"); put_str(&w, "1");
            send_frame(w.buf, (uint32_t)w.len);
        } else if (str_is(type, "act")) {
            if (!legal || legal_count == 0) {
                fprintf(stderr, "c_bot: act without legal actions\n");
                free(body);
                return 1;
            }
            /* find the chosen element and copy its bytes as they came */
            reader walk = {legal, body + n, 0};
            uint32_t pick = (uint32_t)(next_random() % legal_count);
            for (uint32_t i = 0; i < pick; i++) skip(&walk);
            const uint8_t *start = walk.p;
            skip(&walk);
            uint8_t map2 = 0x82;
            put(&w, &map2, 1);
            put_str(&w, "type"); put_str(&w, "action");
            put_str(&w, "action");
            put(&w, start, (size_t)(walk.p - start));
            send_frame(w.buf, (uint32_t)w.len);
        } else if (str_is(type, "goodbye")) {
            free(body);
            break;
        }
        /* new_game and game_over need no answer */
        free(body);
    }
    free(w.buf);
    return 0;
}
