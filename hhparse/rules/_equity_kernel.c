/* The all-in equity's exact board counting, in C: hhparse.rules.equity's _preflop_counts (no
board card known: Omaha, 5 and 6 Card Omaha, counted by rank class), _known_card_counts (one
known: pre-flop Courchevel) and the flop's and turn's exact enumeration (every board listed); the
settlement of the counted outcomes (_settle's exact branch) and Monte Carlo's hands valued on
their drawn boards (hand_values).

Why: in numpy each of those spots takes one to a few hundred small calls, each at numpy's
per-call floor, and several arrays that exist only to be reduced again: most of the all-in EV
stage's time (docs/performance.md, ev30, ev31 and kernel32). Here the same counting is a few
loops over the same tables, with no intermediate arrays. (mypyc, which compiles the engine,
runs such loops only over Python lists of boxed integers: slower than numpy here.)

Exactness: every board is counted once, in one outcome, exactly as the numpy code counts it:
the result is the same outcomes with the same board counts. The tables are equity.py's own
(handed over once by load(), their sizes and indices checked): this file holds no poker
knowledge of its own beyond the card numbering (4 * rank + suit), the low bits of a rank, the
winners' masks of _pot_codes and the two value thresholds below.

The API (called by hhparse/rules/equity.py only; _equity_kernel.pyi types it):

  load(tables)  the tables, a tuple of C-contiguous int32 buffers in the order of TABLE_*.
  counts(holes, hole_size, unseen, pots, hilo) -> (keys, counts)
      holes: bytes, the contenders' cards, hole_size a contender, in row order;
      unseen: bytes, the cards still in the deck;
      pots: bytes, per pot with more than one eligible player (in pot order): their number,
            then their rows in the pot's odd-chip order;
      hilo: whether the pots are split high/low.
      keys: each outcome as _joint packs it (per pot, its high winners' mask and, hi/lo, its
            low winners' mask above it, the pots one after the other), ascending; counts: the
            boards giving each (outcomes no board gives are left out).
  counts_known(holes, hole_size, unseen, known, pots, hilo) -> (keys, counts)
      the same with one board card known (`known`, a card index), four to come.
  listed(holes, hole_size, unseen, known, pots, hilo) -> (keys, counts)
      the same with two to four board cards known (`known`: bytes), every board listed.
  settle(keys, counts, pots, amounts, hilo) -> totals   (see settle() below)
  values(holes, hole_size, boards, hilo) -> (high, low)   (see values() below)
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_LOW 256
#define FULL_HOUSE_MIN (6 << 20)
#define STRAIGHT_FLUSH_MIN (8 << 20)
#define N_TRIPLES 455 /* rank multisets of three */
#define N_PARTS 1820  /* rank multisets of four */
#define MAX_ROWS 16
#define MAX_HOLE 16
#define MAX_BITS 62

enum {
    TABLE_NF,           /* (169, 455) hole rank pair x triple multiset -> non-flush value */
    TABLE_LOW,          /* (256, 256) pair low mask x triple low mask -> low */
    TABLE_FL,           /* (8192,) five-rank mask of one suit -> flush value */
    TABLE_MS4,          /* (4, 1820) a four-rank multiset's triples' multisets */
    TABLE_PARTS,        /* (4, R) a class's four-rank parts */
    TABLE_LOW_RANKS,    /* (R,) a class's low ranks' mask (0 when fewer than three) */
    TABLE_DISTINCT,     /* (5, R) 5 * rank + count of a class's different ranks, 65 past them */
    TABLE_LOW4,         /* (70,) masks of four low ranks */
    TABLE_LOW4_WITHOUT, /* (4, 70) each without each of its ranks */
    TABLE_LOW5,         /* (56,) masks of five low ranks */
    TABLE_LOW5_WITHOUT, /* (5, 56) */
    TABLE_WS3,          /* (286, 91) three suited ranks x multiset of two others -> class */
    TABLE_WS4,          /* (715, 13) */
    TABLE_WS5,          /* (1287, 1) */
    TABLE_SMASK3,       /* (286,) rank mask of each set of three ranks */
    TABLE_SMASK4,       /* (715,) */
    TABLE_SMASK5,       /* (1287,) */
    TABLE_TMASK3,       /* (286, 1) rank masks of each set's triples */
    TABLE_TMASK4,       /* (715, 4) */
    TABLE_TMASK5,       /* (1287, 10) */
    TABLE_IN_STRAIGHT,  /* (8192,) whether a straight holds every rank of the mask */
    TABLE_PAIRS2,       /* (2, 91) the multisets of two ranks: first ranks, second ranks */
    /* one board card known, four to come (counts_known) */
    TABLE_DISTINCT4,    /* (4, 1820) 5 * rank + count of a four-rank multiset's ranks, 65 past them */
    TABLE_ADD_RANK,     /* (1820, 13) the class of a four-rank multiset and a rank (R: five of it) */
    TABLE_WK2,          /* (78, 91) two suited ranks x multiset of two others -> four-rank multiset */
    TABLE_WK3,          /* (286, 13) */
    TABLE_WK4,          /* (715, 1) */
    TABLE_SMASK2,       /* (78,) rank mask of each set of two ranks */
    /* boards listed (listed) */
    TABLE_MS3,          /* (13 ** 3,) ordered rank triple 169a + 13b + c -> its multiset */
    N_TABLES
};

static Py_buffer views[N_TABLES];
static const int32_t *tab[N_TABLES];
static Py_ssize_t n_classes = 0; /* R; 0 until load() */

static const Py_ssize_t n_sets[6] = {0, 0, 0, 286, 715, 1287};    /* C(13, j) */
static const Py_ssize_t n_others[6] = {0, 0, 0, 91, 13, 1};       /* multisets of 5 - j ranks */
static const Py_ssize_t n_set_triples[6] = {0, 0, 0, 1, 4, 10};   /* C(j, 3) */

static Py_ssize_t
expected_size(int t, Py_ssize_t r)
{
    switch (t) {
    case TABLE_NF: return 169 * N_TRIPLES;
    case TABLE_LOW: return 256 * 256;
    case TABLE_FL: return 8192;
    case TABLE_MS4: return 4 * N_PARTS;
    case TABLE_PARTS: return 4 * r;
    case TABLE_LOW_RANKS: return r;
    case TABLE_DISTINCT: return 5 * r;
    case TABLE_LOW4: return 70;
    case TABLE_LOW4_WITHOUT: return 4 * 70;
    case TABLE_LOW5: return 56;
    case TABLE_LOW5_WITHOUT: return 5 * 56;
    case TABLE_WS3: return 286 * 91;
    case TABLE_WS4: return 715 * 13;
    case TABLE_WS5: return 1287;
    case TABLE_SMASK3: return 286;
    case TABLE_SMASK4: return 715;
    case TABLE_SMASK5: return 1287;
    case TABLE_TMASK3: return 286;
    case TABLE_TMASK4: return 715 * 4;
    case TABLE_TMASK5: return 1287 * 10;
    case TABLE_IN_STRAIGHT: return 8192;
    case TABLE_PAIRS2: return 2 * 91;
    case TABLE_DISTINCT4: return 4 * N_PARTS;
    case TABLE_ADD_RANK: return N_PARTS * 13;
    case TABLE_WK2: return 78 * 91;
    case TABLE_WK3: return 286 * 13;
    case TABLE_WK4: return 715;
    case TABLE_SMASK2: return 78;
    case TABLE_MS3: return 13 * 13 * 13;
    }
    return -1;
}

/* Largest entry a table may hold when it indexes another (checked at load: no index out of
   bounds later, whatever the tables). -1: not an index. */
static int32_t
index_bound(int t, Py_ssize_t r)
{
    switch (t) {
    case TABLE_MS4: return N_TRIPLES - 1;
    case TABLE_PARTS: return N_PARTS - 1;
    case TABLE_LOW_RANKS: case TABLE_LOW4: case TABLE_LOW4_WITHOUT: case TABLE_LOW5:
    case TABLE_LOW5_WITHOUT: return 255;
    case TABLE_DISTINCT: return 65;
    case TABLE_WS3: case TABLE_WS4: case TABLE_WS5: return (int32_t)(r - 1);
    case TABLE_SMASK3: case TABLE_SMASK4: case TABLE_SMASK5: case TABLE_TMASK3: case TABLE_TMASK4:
    case TABLE_TMASK5: return 8191;
    case TABLE_PAIRS2: return 12;
    case TABLE_DISTINCT4: return 65;
    case TABLE_ADD_RANK: return (int32_t)r; /* r: no class */
    case TABLE_WK2: case TABLE_WK3: case TABLE_WK4: return N_PARTS - 1;
    case TABLE_SMASK2: return 8191;
    case TABLE_MS3: return N_TRIPLES - 1;
    }
    return -1;
}

static void
release_tables(void)
{
    for (int t = 0; t < N_TABLES; t++) {
        if (tab[t] != NULL) {
            PyBuffer_Release(&views[t]);
            tab[t] = NULL;
        }
    }
    n_classes = 0;
}

static PyObject *
load(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) != N_TABLES) {
        PyErr_Format(PyExc_TypeError, "load() takes a tuple of %d tables", N_TABLES);
        return NULL;
    }
    Py_buffer got[N_TABLES];
    int have = 0;
    for (; have < N_TABLES; have++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(arg, have), &got[have], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            goto fail;
        const char *fmt = got[have].format;
        if (got[have].itemsize != 4 || fmt == NULL || (strcmp(fmt, "i") != 0 && strcmp(fmt, "=i") != 0 &&
                                                      strcmp(fmt, "<i") != 0 && strcmp(fmt, "l") != 0)) {
            PyErr_Format(PyExc_TypeError, "table %d is not int32", have);
            have++;
            goto fail;
        }
    }
    Py_ssize_t r = got[TABLE_LOW_RANKS].len / 4;
    for (int t = 0; t < N_TABLES; t++) {
        const int32_t *data = (const int32_t *)got[t].buf;
        Py_ssize_t size = got[t].len / 4;
        if (size != expected_size(t, r)) {
            PyErr_Format(PyExc_ValueError, "table %d has %zd entries, not %zd", t, size, expected_size(t, r));
            goto fail;
        }
        int32_t bound = index_bound(t, r);
        if (bound >= 0) {
            for (Py_ssize_t e = 0; e < size; e++) {
                if (data[e] < 0 || data[e] > bound) {
                    PyErr_Format(PyExc_ValueError, "table %d holds %d at %zd", t, (int)data[e], e);
                    goto fail;
                }
            }
        }
    }
    release_tables(); /* the new tables replace the old ones only once they are all good */
    for (int t = 0; t < N_TABLES; t++) {
        views[t] = got[t];
        tab[t] = (const int32_t *)got[t].buf;
    }
    n_classes = r;
    Py_RETURN_NONE;
fail:
    for (int t = 0; t < have; t++)
        PyBuffer_Release(&got[t]);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Outcomes: joint code -> boards                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Codes of at most DENSE_BITS bits (every heads-up spot, most three-way ones) are counted in a
   plain array; wider ones in an open-addressing table. */
#define DENSE_BITS 12

typedef struct {
    int64_t *dense;        /* (1 << bits) boards per code, or NULL */
    uint64_t *keys;        /* the open-addressing table otherwise */
    int64_t *counts;
    unsigned char *used;
    size_t cap, size;
} Tally;

static void
tally_free(Tally *t)
{
    PyMem_Free(t->dense);
    PyMem_Free(t->keys);
    PyMem_Free(t->counts);
    PyMem_Free(t->used);
    memset(t, 0, sizeof *t);
}

static int
tally_init(Tally *t, int bits, size_t cap)
{
    memset(t, 0, sizeof *t);
    if (bits <= DENSE_BITS) {
        t->dense = PyMem_Calloc((size_t)1 << bits, sizeof(int64_t));
        t->cap = (size_t)1 << bits;
        if (t->dense == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        return 0;
    }
    t->keys = PyMem_Malloc(cap * sizeof(uint64_t));
    t->counts = PyMem_Malloc(cap * sizeof(int64_t));
    t->used = PyMem_Calloc(cap, 1);
    if (t->keys == NULL || t->counts == NULL || t->used == NULL) {
        tally_free(t);
        PyErr_NoMemory();
        return -1;
    }
    t->cap = cap;
    return 0;
}

static inline size_t
tally_slot(const Tally *t, uint64_t key)
{
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (t->cap - 1);
    while (t->used[i] && t->keys[i] != key)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static int
tally_insert(Tally *t, uint64_t key, int64_t boards)
{
    size_t i = tally_slot(t, key);
    if (t->used[i]) {
        t->counts[i] += boards;
        return 0;
    }
    if (2 * (t->size + 1) > t->cap) { /* grow, then insert */
        Tally bigger;
        if (tally_init(&bigger, 64, 2 * t->cap) < 0)
            return -1;
        for (size_t e = 0; e < t->cap; e++) {
            if (t->used[e]) {
                size_t j = tally_slot(&bigger, t->keys[e]);
                bigger.used[j] = 1;
                bigger.keys[j] = t->keys[e];
                bigger.counts[j] = t->counts[e];
                bigger.size++;
            }
        }
        tally_free(t);
        *t = bigger;
        i = tally_slot(t, key);
    }
    t->used[i] = 1;
    t->keys[i] = key;
    t->counts[i] = boards;
    t->size++;
    return 0;
}

static inline int
tally_add(Tally *t, uint64_t key, int64_t boards)
{
    if (t->dense != NULL) {
        t->dense[key] += boards;
        return 0;
    }
    return tally_insert(t, key, boards);
}

/* Boards leaving outcome `was` for `now` (nothing when they are the same). */
static inline int
tally_move(Tally *t, uint64_t was, uint64_t now, int64_t boards)
{
    if (was == now || boards == 0)
        return 0;
    if (tally_add(t, now, boards) < 0)
        return -1;
    return tally_add(t, was, -boards);
}

typedef struct {
    uint64_t key;
    int64_t count;
} Entry;

static int
by_key(const void *a, const void *b)
{
    uint64_t x = ((const Entry *)a)->key, y = ((const Entry *)b)->key;
    return (x > y) - (x < y);
}

/* The outcomes some board gives, ascending, as two lists (keys, boards). */
static PyObject *
tally_result(const Tally *t)
{
    Entry *entries = PyMem_Malloc((t->cap ? t->cap : 1) * sizeof(Entry));
    if (entries == NULL)
        return PyErr_NoMemory();
    size_t n = 0;
    for (size_t e = 0; e < t->cap; e++) {
        if (t->dense != NULL ? t->dense[e] != 0 : t->used[e] && t->counts[e] != 0) {
            entries[n].key = t->dense != NULL ? (uint64_t)e : t->keys[e];
            entries[n].count = t->dense != NULL ? t->dense[e] : t->counts[e];
            n++;
        }
    }
    if (t->dense == NULL)
        qsort(entries, n, sizeof(Entry), by_key);
    PyObject *result = NULL;
    PyObject *keys = PyList_New((Py_ssize_t)n), *boards = PyList_New((Py_ssize_t)n);
    if (keys == NULL || boards == NULL)
        goto done;
    for (size_t e = 0; e < n; e++) {
        PyObject *k = PyLong_FromUnsignedLongLong(entries[e].key);
        if (k == NULL)
            goto done;
        PyList_SET_ITEM(keys, (Py_ssize_t)e, k);
        PyObject *b = PyLong_FromLongLong(entries[e].count);
        if (b == NULL)
            goto done;
        PyList_SET_ITEM(boards, (Py_ssize_t)e, b);
    }
    result = PyTuple_Pack(2, keys, boards);
done:
    Py_XDECREF(keys);
    Py_XDECREF(boards);
    PyMem_Free(entries);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* A spot                                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    int n;                 /* eligible players */
    int shift;             /* where its masks start in the joint code */
    int rows[MAX_ROWS];    /* their rows, in odd-chip order */
} Pot;

typedef struct {
    int n_rows, h, hilo, n_pots, bits;
    Pot pots[MAX_ROWS * 2];
    uint64_t high_bits;    /* every pot's high winners' bits in the joint code */
    const unsigned char *holes;
    int avail[13];         /* unseen cards per rank */
    int32_t insuit[4];     /* per suit, the ranks of its unseen cards */
    int32_t *nfc;          /* (rows, R) best non-flush value per class */
    int32_t *loc;          /* (rows, R) best low per class (hi/lo only) */
    uint64_t *code;        /* (R,) each class's outcome */
    int64_t *plain[MAX_ROWS]; /* (R,) a lone flusher's plain flush boards per class, or NULL */
    int32_t *scratch;         /* (R,) values */
    uint64_t *scratch_codes;  /* (R,) codes */
} Spot;

static inline int32_t
max32(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

/* A pot's high winners' mask: the eligible players whose value is the largest. */
static inline uint64_t
high_mask(const Pot *p, const int32_t *high)
{
    int32_t best = high[p->rows[0]];
    for (int e = 1; e < p->n; e++)
        best = max32(best, high[p->rows[e]]);
    uint64_t code = 0;
    for (int e = 0; e < p->n; e++)
        code |= (uint64_t)(high[p->rows[e]] == best) << e;
    return code;
}

/* A flush board's outcome: these highs, the class's lows (_pot_codes with high_only, the low
   winners' bits taken from the class's code). */
static inline uint64_t
flush_code(const Spot *s, const int32_t *high, uint64_t class_code)
{
    uint64_t joint = class_code & ~s->high_bits;
    for (int k = 0; k < s->n_pots; k++)
        joint |= high_mask(&s->pots[k], high) << s->pots[k].shift;
    return joint;
}

/* The best flush of a contender's suited pairs (`masks`, `n` of them) with a set of suited
   board ranks (its triples' masks `tmask`, `nt` of them). */
static inline int32_t
flush_value(const int32_t *masks, int n, const int32_t *tmask, Py_ssize_t nt)
{
    const int32_t *fl = tab[TABLE_FL];
    int32_t best = 0;
    for (int a = 0; a < n; a++)
        for (Py_ssize_t t = 0; t < nt; t++)
            best = max32(best, fl[masks[a] | tmask[t]]);
    return best;
}

static inline int32_t
low_bit(int rank)
{
    return rank == 12 ? 1 : rank <= 6 ? 1 << (rank + 1) : 0;
}

static int
ranks_popcount(int32_t m)
{
    int c = 0;
    for (; m; m &= m - 1)
        c++;
    return c;
}

/* A contender's best non-flush value per triple rank multiset and best low per triple low
   mask, over its hole pairs (_players): `nf3` (455), `lo3` (256, hi/lo only). */
static void
row_tables(const Spot *s, int i, int32_t *nf3, int32_t *lo3)
{
    const int h = s->h;
    const int32_t *nf = tab[TABLE_NF], *lowtab = tab[TABLE_LOW];
    const unsigned char *cards = s->holes + (size_t)i * h;
    int first = 1;
    for (int a = 0; a < h; a++) {
        for (int b = a + 1; b < h; b++) {
            const int32_t *row = nf + (13 * (cards[a] >> 2) + (cards[b] >> 2)) * N_TRIPLES;
            if (first) {
                memcpy(nf3, row, N_TRIPLES * sizeof(int32_t));
            } else {
                for (int t = 0; t < N_TRIPLES; t++)
                    nf3[t] = max32(nf3[t], row[t]);
            }
            first = 0;
        }
    }
    if (!s->hilo)
        return;
    for (int m = 0; m < 256; m++)
        lo3[m] = NO_LOW;
    for (int a = 0; a < h; a++) {
        for (int b = a + 1; b < h; b++) {
            int32_t la = low_bit(cards[a] >> 2), lb = low_bit(cards[b] >> 2);
            int32_t pl = (la && lb && la != lb) ? (la | lb) : 0;
            const int32_t *row = lowtab + pl * 256;
            for (int m = 0; m < 256; m++)
                lo3[m] = row[m] < lo3[m] ? row[m] : lo3[m];
        }
    }
}

/* Each contender's best non-flush value and low per class (_players, then _class_values). */
static void
class_values(Spot *s)
{
    const Py_ssize_t R = n_classes;
    const int32_t *ms4 = tab[TABLE_MS4], *parts = tab[TABLE_PARTS];
    int32_t nf3[N_TRIPLES], part[N_PARTS], best[256];
    for (int i = 0; i < s->n_rows; i++) {
        row_tables(s, i, nf3, best);
        for (int q = 0; q < N_PARTS; q++) {
            int32_t v = nf3[ms4[q]];
            v = max32(v, nf3[ms4[N_PARTS + q]]);
            v = max32(v, nf3[ms4[2 * N_PARTS + q]]);
            part[q] = max32(v, nf3[ms4[3 * N_PARTS + q]]);
        }
        int32_t *out = s->nfc + (size_t)i * R;
        for (Py_ssize_t c = 0; c < R; c++) {
            int32_t v = part[parts[c]];
            v = max32(v, part[parts[R + c]]);
            v = max32(v, part[parts[2 * R + c]]);
            out[c] = max32(v, part[parts[3 * R + c]]);
        }
        if (!s->hilo)
            continue;
        /* each set of four, then five, low ranks: the best of itself without each rank */
        static const int sizes[2][3] = {{TABLE_LOW4, TABLE_LOW4_WITHOUT, 4}, {TABLE_LOW5, TABLE_LOW5_WITHOUT, 5}};
        for (int z = 0; z < 2; z++) {
            const int32_t *masks = tab[sizes[z][0]], *without = tab[sizes[z][1]];
            int size = sizes[z][2];
            Py_ssize_t n = expected_size(sizes[z][0], R);
            for (Py_ssize_t k = 0; k < n; k++) {
                int32_t v = best[without[k]];
                for (int x = 1; x < size; x++)
                    v = best[without[x * n + k]] < v ? best[without[x * n + k]] : v;
                best[masks[k]] = v;
            }
        }
        const int32_t *low_ranks = tab[TABLE_LOW_RANKS];
        int32_t *lo = s->loc + (size_t)i * R;
        for (Py_ssize_t c = 0; c < R; c++)
            lo[c] = best[low_ranks[c]];
    }
}

/* Each class's outcome (_pot_codes, then _joint): per pot, its high winners' mask and (hi/lo)
   its low winners' mask above it, 0 when no low qualifies; a pass over the classes per pot and
   player (`best`: scratch, R values). */
static void
class_codes(Spot *s, int32_t *best)
{
    const Py_ssize_t R = n_classes;
    uint64_t *code = s->code;
    memset(code, 0, (size_t)R * sizeof(uint64_t));
    for (int k = 0; k < s->n_pots; k++) {
        const Pot *p = &s->pots[k];
        memcpy(best, s->nfc + (size_t)p->rows[0] * R, (size_t)R * sizeof(int32_t));
        for (int e = 1; e < p->n; e++) {
            const int32_t *v = s->nfc + (size_t)p->rows[e] * R;
            for (Py_ssize_t c = 0; c < R; c++)
                best[c] = max32(best[c], v[c]);
        }
        for (int e = 0; e < p->n; e++) {
            const int32_t *v = s->nfc + (size_t)p->rows[e] * R;
            const int bit = p->shift + e;
            for (Py_ssize_t c = 0; c < R; c++)
                code[c] |= (uint64_t)(v[c] == best[c]) << bit;
        }
        if (!s->hilo)
            continue;
        memcpy(best, s->loc + (size_t)p->rows[0] * R, (size_t)R * sizeof(int32_t));
        for (int e = 1; e < p->n; e++) {
            const int32_t *v = s->loc + (size_t)p->rows[e] * R;
            for (Py_ssize_t c = 0; c < R; c++)
                best[c] = v[c] < best[c] ? v[c] : best[c];
        }
        for (int e = 0; e < p->n; e++) {
            const int32_t *v = s->loc + (size_t)p->rows[e] * R;
            const int bit = p->shift + p->n + e;
            for (Py_ssize_t c = 0; c < R; c++)
                code[c] |= (uint64_t)((v[c] == best[c]) & (best[c] < NO_LOW)) << bit;
        }
    }
}

/* Every board by its rank class (the ways to pick its ranks from the unseen cards) in its
   class's outcome, and each lone flusher's plain flush boards (`plain`) moved to theirs
   (_lone_flush): the flush wins the high of every pot the flusher is in alone unless another
   eligible player has a full house or better (then the class's winners); the lows are the
   class's. `best`: scratch, R values; `now`: scratch, R codes. */
static int
rank_class_boards(Spot *s, Tally *tally, int32_t *best, uint64_t *now)
{
    const Py_ssize_t R = n_classes;
    static const int64_t choose[5][5] = {
        {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};
    int64_t binomial[66];
    for (int r = 0; r < 13; r++)
        for (int k = 0; k < 5; k++)
            binomial[5 * r + k] = choose[s->avail[r]][k];
    binomial[65] = 1; /* past a class's different ranks */
    const int32_t *d0 = tab[TABLE_DISTINCT], *d1 = d0 + R, *d2 = d1 + R, *d3 = d2 + R, *d4 = d3 + R;
    class_codes(s, best);
    const uint64_t *code = s->code;
    for (Py_ssize_t c = 0; c < R; c++) {
        int64_t ways = binomial[d0[c]] * binomial[d1[c]] * binomial[d2[c]] * binomial[d3[c]] * binomial[d4[c]];
        if (ways && tally_add(tally, code[c], ways) < 0)
            return -1;
    }
    for (int f = 0; f < s->n_rows; f++) {
        const int64_t *plain = s->plain[f];
        if (plain == NULL)
            continue;
        memcpy(now, code, (size_t)R * sizeof(uint64_t));
        for (int k = 0; k < s->n_pots; k++) {
            const Pot *p = &s->pots[k];
            int at = -1, first = 1;
            for (int e = 0; e < p->n; e++) {
                if (p->rows[e] == f) {
                    at = e;
                    continue;
                }
                const int32_t *v = s->nfc + (size_t)p->rows[e] * R;
                if (first)
                    memcpy(best, v, (size_t)R * sizeof(int32_t));
                else
                    for (Py_ssize_t c = 0; c < R; c++)
                        best[c] = max32(best[c], v[c]);
                first = 0;
            }
            if (at < 0)
                continue;
            const uint64_t keep = ~((((uint64_t)1 << p->n) - 1) << p->shift), alone = (uint64_t)1 << (p->shift + at);
            for (Py_ssize_t c = 0; c < R; c++)
                now[c] = best[c] < FULL_HOUSE_MIN ? (now[c] & keep) | alone : now[c];
        }
        for (Py_ssize_t c = 0; c < R; c++)
            if (plain[c] && tally_move(tally, code[c], now[c], plain[c]) < 0)
                return -1;
    }
    return 0;
}

/* The boards with three or more cards of `suit` when a contender holds two of it: per set of
   ranks of that suit on the board and multiset of the other ranks. A suit in which one
   contender alone holds two: its flushes are first counted per class as plain ones (`first`,
   before the classes' outcomes are known), and afterwards its straight flushes are taken out
   of them and counted board by board; any other: each board's outcome from every contender's
   flush afterwards. */
static int
flush_boards(Spot *s, Tally *tally, int suit, int first)
{
    const Py_ssize_t R = n_classes;
    const int h = s->h;
    int32_t pmask[MAX_ROWS][MAX_HOLE * (MAX_HOLE - 1) / 2];
    int npm[MAX_ROWS] = {0};
    int flushers = 0, alone = -1;
    for (int i = 0; i < s->n_rows; i++) {
        const unsigned char *cards = s->holes + (size_t)i * h;
        for (int a = 0; a < h; a++)
            for (int b = a + 1; b < h; b++)
                if ((cards[a] & 3) == suit && (cards[b] & 3) == suit)
                    pmask[i][npm[i]++] = (1 << (cards[a] >> 2)) | (1 << (cards[b] >> 2));
        if (npm[i]) {
            flushers++;
            alone = i;
        }
    }
    if (!flushers)
        return 0; /* no contender can make a flush in this suit */
    if (flushers > 1)
        alone = -1;
    if (first && alone < 0)
        return 0;
    const int32_t *in_straight = tab[TABLE_IN_STRAIGHT], *pairs2 = tab[TABLE_PAIRS2];
    int straights = 1; /* whether the lone flusher can make a straight flush */
    /* the board ranks of the suit that complete one of its suited pairs to a straight flush */
    int32_t completing[MAX_HOLE * (MAX_HOLE - 1) / 2 * 10];
    int n_completing = 0;
    if (alone >= 0) {
        straights = 0;
        for (int a = 0; a < npm[alone]; a++) {
            int32_t pm = pmask[alone][a];
            if (!in_straight[pm])
                continue;
            straights = 1;
            for (int top = 3; top < 13; top++) {
                int32_t straight = top == 3 ? (1 << 12) | 0xF : 0x1F << (top - 4);
                if ((pm & ~straight) == 0)
                    completing[n_completing++] = straight & ~pm;
            }
        }
        if (!first && !straights)
            return 0;
        if (first && s->plain[alone] == NULL) {
            s->plain[alone] = PyMem_Calloc((size_t)R, sizeof(int64_t));
            if (s->plain[alone] == NULL) {
                PyErr_NoMemory();
                return -1;
            }
        }
    }
    int32_t insuit = s->insuit[suit];
    int u = ranks_popcount(insuit);
    int32_t absent = ~insuit & 0x1FFF; /* ranks of the suit not in the deck */
    int64_t off[13];                    /* the other suits' unseen cards per rank */
    for (int r = 0; r < 13; r++)
        off[r] = s->avail[r] - ((insuit >> r) & 1);
    /* the ways to pick each multiset of the other 5 - j ranks (_other_ways) */
    int64_t ow3[91], ow4[13], ow5[1] = {1};
    for (int o = 0; o < 91; o++) {
        int a = pairs2[o], b = pairs2[91 + o];
        ow3[o] = a == b ? off[a] * (off[a] - 1) / 2 : off[a] * off[b];
    }
    for (int r = 0; r < 13; r++)
        ow4[r] = off[r];
    const int64_t *ow_of[6] = {0, 0, 0, ow3, ow4, ow5};
    const int32_t *ws_of[6] = {0, 0, 0, tab[TABLE_WS3], tab[TABLE_WS4], tab[TABLE_WS5]};
    const int32_t *smask_of[6] = {0, 0, 0, tab[TABLE_SMASK3], tab[TABLE_SMASK4], tab[TABLE_SMASK5]};
    const int32_t *tmask_of[6] = {0, 0, 0, tab[TABLE_TMASK3], tab[TABLE_TMASK4], tab[TABLE_TMASK5]};
    int32_t high[MAX_ROWS], fv[MAX_ROWS];
    for (int j = 3; j <= 5 && j <= u; j++) {
        const int32_t *ws = ws_of[j], *smask = smask_of[j], *tmask = tmask_of[j];
        const int64_t *ow = ow_of[j];
        Py_ssize_t no = n_others[j], nt = n_set_triples[j];
        for (Py_ssize_t f = 0; f < n_sets[j]; f++) {
            if (smask[f] & absent)
                continue; /* a rank of this set is not in the deck in this suit */
            const int32_t *cls = ws + f * no;
            if (alone >= 0) {
                int64_t *mine = s->plain[alone];
                if (first) {
                    for (Py_ssize_t o = 0; o < no; o++)
                        mine[cls[o]] += ow[o];
                }
                if (!straights)
                    continue;
                int sf = 0;
                for (int t = 0; t < n_completing && !sf; t++)
                    sf = (smask[f] & completing[t]) == completing[t];
                if (!sf)
                    continue;
                int32_t v = flush_value(pmask[alone], npm[alone], tmask + f * nt, nt);
                if (v < STRAIGHT_FLUSH_MIN)
                    continue;
                for (Py_ssize_t o = 0; o < no; o++) {
                    if (!ow[o])
                        continue;
                    int32_t c = cls[o];
                    if (first) {
                        mine[c] -= ow[o];
                        continue;
                    }
                    for (int i = 0; i < s->n_rows; i++)
                        high[i] = s->nfc[(size_t)i * R + c];
                    high[alone] = max32(high[alone], v);
                    if (tally_move(tally, s->code[c], flush_code(s, high, s->code[c]), ow[o]) < 0)
                        return -1;
                }
                continue;
            }
            for (int i = 0; i < s->n_rows; i++)
                fv[i] = npm[i] ? flush_value(pmask[i], npm[i], tmask + f * nt, nt) : 0;
            for (Py_ssize_t o = 0; o < no; o++) {
                if (!ow[o])
                    continue;
                int32_t c = cls[o];
                for (int i = 0; i < s->n_rows; i++)
                    high[i] = max32(s->nfc[(size_t)i * R + c], fv[i]);
                if (tally_move(tally, s->code[c], flush_code(s, high, s->code[c]), ow[o]) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* Read a spot (the functions' arguments) into `s` and open the tally for its outcomes; with
   `classes`, each contender's values per rank class too (class_values). -1 with an exception
   set when malformed. `known`: the board cards already dealt (`n_known` of them). */
static int
spot_open(Spot *s, Tally *tally, const Py_buffer *hb, int h, const Py_buffer *ub, const unsigned char *known,
          Py_ssize_t n_known, const Py_buffer *pb, int hilo, int classes)
{
    const Py_ssize_t R = n_classes;
    const unsigned char *holes = hb->buf, *unseen = ub->buf, *pots = pb->buf;
    int in_play[52] = {0};
    if (R == 0) {
        PyErr_SetString(PyExc_RuntimeError, "load() the tables first");
        return -1;
    }
    if (h < 2 || h > MAX_HOLE || hb->len % h != 0 || hb->len / h < 2 || hb->len / h > MAX_ROWS) {
        PyErr_SetString(PyExc_ValueError, "holes: 2 to 16 rows of 2 to 16 cards");
        return -1;
    }
    s->n_rows = (int)(hb->len / h);
    s->h = h;
    s->hilo = hilo;
    s->holes = holes;
    for (Py_ssize_t e = 0; e < hb->len; e++) {
        if (holes[e] >= 52 || in_play[holes[e]]++) {
            PyErr_SetString(PyExc_ValueError, "holes: a card twice or not a card");
            return -1;
        }
    }
    for (Py_ssize_t e = 0; e < n_known; e++) {
        if (known[e] >= 52 || in_play[known[e]]++) {
            PyErr_SetString(PyExc_ValueError, "known: a card twice, held, or not a card");
            return -1;
        }
    }
    for (Py_ssize_t e = 0; e < ub->len; e++) {
        if (unseen[e] >= 52 || in_play[unseen[e]]++) {
            PyErr_SetString(PyExc_ValueError, "unseen: a card twice, held, known, or not a card");
            return -1;
        }
        s->avail[unseen[e] >> 2]++;
        s->insuit[unseen[e] & 3] |= 1 << (unseen[e] >> 2);
    }
    for (Py_ssize_t e = 0; e < pb->len;) {
        int n = pots[e++];
        if (s->n_pots == MAX_ROWS * 2 || n < 2 || n > s->n_rows || e + n > pb->len) {
            PyErr_SetString(PyExc_ValueError, "pots: malformed");
            return -1;
        }
        Pot *p = &s->pots[s->n_pots++];
        p->n = n;
        p->shift = s->bits;
        for (int x = 0; x < n; x++) {
            p->rows[x] = pots[e++];
            if (p->rows[x] >= s->n_rows) {
                PyErr_SetString(PyExc_ValueError, "pots: a row out of range");
                return -1;
            }
        }
        s->high_bits |= (((uint64_t)1 << n) - 1) << s->bits;
        s->bits += hilo ? 2 * n : n;
        if (s->bits > MAX_BITS) {
            PyErr_SetString(PyExc_ValueError, "pots: outcomes too wide for 62 bits");
            return -1;
        }
    }
    if (s->n_pots == 0) {
        PyErr_SetString(PyExc_ValueError, "pots: none contested");
        return -1;
    }
    if (tally_init(tally, s->bits, 256) < 0)
        return -1;
    if (!classes)
        return 0;
    s->nfc = PyMem_Malloc((size_t)s->n_rows * R * sizeof(int32_t));
    s->loc = hilo ? PyMem_Malloc((size_t)s->n_rows * R * sizeof(int32_t)) : NULL;
    s->code = PyMem_Malloc((size_t)R * sizeof(uint64_t));
    s->scratch = PyMem_Malloc((size_t)R * sizeof(int32_t));
    s->scratch_codes = PyMem_Malloc((size_t)R * sizeof(uint64_t));
    if (s->nfc == NULL || (hilo && s->loc == NULL) || s->code == NULL || s->scratch == NULL ||
        s->scratch_codes == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    class_values(s);
    return 0;
}

static void
spot_close(Spot *s, Tally *tally)
{
    for (int i = 0; i < MAX_ROWS; i++)
        PyMem_Free(s->plain[i]);
    tally_free(tally);
    PyMem_Free(s->nfc);
    PyMem_Free(s->loc);
    PyMem_Free(s->code);
    PyMem_Free(s->scratch);
    PyMem_Free(s->scratch_codes);
}

static PyObject *
counts(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer hb, ub, pb;
    int h, hilo;
    if (!PyArg_ParseTuple(args, "y*iy*y*p", &hb, &h, &ub, &pb, &hilo))
        return NULL;
    PyObject *result = NULL;
    Spot s;
    memset(&s, 0, sizeof s);
    Tally tally;
    memset(&tally, 0, sizeof tally);
    if (spot_open(&s, &tally, &hb, h, &ub, NULL, 0, &pb, hilo, 1) < 0)
        goto done;
    for (int suit = 0; suit < 4; suit++)
        if (flush_boards(&s, &tally, suit, 1) < 0)
            goto done;
    if (rank_class_boards(&s, &tally, s.scratch, s.scratch_codes) < 0)
        goto done;
    for (int suit = 0; suit < 4; suit++)
        if (flush_boards(&s, &tally, suit, 0) < 0)
            goto done;
    result = tally_result(&tally);
done:
    spot_close(&s, &tally);
    PyBuffer_Release(&hb);
    PyBuffer_Release(&ub);
    PyBuffer_Release(&pb);
    return result;
}

/* The triples of a set of at most five ranks (`mask`), as rank masks: their number. */
static int
triples_of(int32_t mask, int32_t *out)
{
    int ranks[13], n = 0, t = 0;
    for (int r = 0; r < 13; r++)
        if (mask >> r & 1)
            ranks[n++] = r;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int c = b + 1; c < n; c++)
                out[t++] = (1 << ranks[a]) | (1 << ranks[b]) | (1 << ranks[c]);
    return t;
}

/* _known_card_counts: the boards of one known card (pre-flop Courchevel: the exposed card) and
   four of the unseen cards. A board's class is the known rank with a multiset of four new ranks
   (its boards: the ways to pick those from the unseen cards); a board with three or more cards
   of a suit in which a contender holds two (the known card counting when of that suit) is
   counted again per suit, set of new ranks of that suit and multiset of the other new ranks,
   with every contender's flush, and moved from its class's outcome to its own. */
static PyObject *
counts_known(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer hb, ub, pb;
    int h, known, hilo;
    if (!PyArg_ParseTuple(args, "y*iy*iy*p", &hb, &h, &ub, &known, &pb, &hilo))
        return NULL;
    PyObject *result = NULL;
    Spot s;
    memset(&s, 0, sizeof s);
    Tally tally;
    memset(&tally, 0, sizeof tally);
    const Py_ssize_t R = n_classes;
    if (known < 0 || known >= 52) {
        PyErr_SetString(PyExc_ValueError, "known: not a card");
        goto done;
    }
    const unsigned char known_card = (unsigned char)known;
    if (spot_open(&s, &tally, &hb, h, &ub, &known_card, 1, &pb, hilo, 1) < 0)
        goto done;
    class_codes(&s, s.scratch);
    const int r0 = known >> 2, known_suit = known & 3;
    const int32_t *d4 = tab[TABLE_DISTINCT4], *add_rank = tab[TABLE_ADD_RANK];
    static const int64_t choose[5][5] = {
        {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};
    int64_t binomial[66];
    for (int r = 0; r < 13; r++)
        for (int k = 0; k < 5; k++)
            binomial[5 * r + k] = choose[s.avail[r]][k];
    binomial[65] = 1;
    for (Py_ssize_t q = 0; q < N_PARTS; q++) {
        int64_t ways = binomial[d4[q]] * binomial[d4[N_PARTS + q]] * binomial[d4[2 * N_PARTS + q]] *
                       binomial[d4[3 * N_PARTS + q]];
        int32_t c = add_rank[q * 13 + r0];
        if (ways && c < R && tally_add(&tally, s.code[c], ways) < 0)
            goto done;
    }
    const int32_t *pairs2 = tab[TABLE_PAIRS2];
    const int32_t *wk_of[5] = {0, 0, tab[TABLE_WK2], tab[TABLE_WK3], tab[TABLE_WK4]};
    const int32_t *smask_of[5] = {0, 0, tab[TABLE_SMASK2], tab[TABLE_SMASK3], tab[TABLE_SMASK4]};
    static const Py_ssize_t n_sets_k[5] = {0, 0, 78, 286, 715}, n_others_k[5] = {0, 0, 91, 13, 1};
    for (int suit = 0; suit < 4; suit++) {
        int32_t pmask[MAX_ROWS][MAX_HOLE * (MAX_HOLE - 1) / 2];
        int npm[MAX_ROWS] = {0}, flushers = 0;
        for (int i = 0; i < s.n_rows; i++) {
            const unsigned char *cards = s.holes + (size_t)i * h;
            for (int a = 0; a < h; a++)
                for (int b = a + 1; b < h; b++)
                    if ((cards[a] & 3) == suit && (cards[b] & 3) == suit)
                        pmask[i][npm[i]++] = (1 << (cards[a] >> 2)) | (1 << (cards[b] >> 2));
            flushers += npm[i] > 0;
        }
        if (!flushers)
            continue; /* no contender can make a flush in this suit */
        int32_t insuit = s.insuit[suit], mine = known_suit == suit ? 1 << r0 : 0;
        int u = ranks_popcount(insuit);
        int32_t absent = ~insuit & 0x1FFF;
        int64_t off[13];
        for (int r = 0; r < 13; r++)
            off[r] = s.avail[r] - ((insuit >> r) & 1);
        int64_t ow2[91], ow1[13], ow0[1] = {1};
        for (int o = 0; o < 91; o++) {
            int a = pairs2[o], b = pairs2[91 + o];
            ow2[o] = a == b ? off[a] * (off[a] - 1) / 2 : off[a] * off[b];
        }
        for (int r = 0; r < 13; r++)
            ow1[r] = off[r];
        const int64_t *ow_of[5] = {0, 0, ow2, ow1, ow0};
        int32_t triples[10], high[MAX_ROWS], fv[MAX_ROWS];
        for (int j = mine ? 2 : 3; j <= 4 && j <= u; j++) {
            const int32_t *wk = wk_of[j], *smask = smask_of[j];
            const int64_t *ow = ow_of[j];
            Py_ssize_t no = n_others_k[j];
            for (Py_ssize_t f = 0; f < n_sets_k[j]; f++) {
                if (smask[f] & absent)
                    continue; /* a rank of this set is not in the deck in this suit */
                int nt = triples_of(smask[f] | mine, triples);
                for (int i = 0; i < s.n_rows; i++)
                    fv[i] = npm[i] ? flush_value(pmask[i], npm[i], triples, nt) : 0;
                for (Py_ssize_t o = 0; o < no; o++) {
                    if (!ow[o])
                        continue;
                    int32_t c = add_rank[wk[f * no + o] * 13 + r0];
                    if (c >= R)
                        continue; /* five of a rank: no board */
                    for (int i = 0; i < s.n_rows; i++)
                        high[i] = max32(s.nfc[(size_t)i * R + c], fv[i]);
                    if (tally_move(&tally, s.code[c], flush_code(&s, high, s.code[c]), ow[o]) < 0)
                        goto done;
                }
            }
        }
    }
    result = tally_result(&tally);
done:
    spot_close(&s, &tally);
    PyBuffer_Release(&hb);
    PyBuffer_Release(&ub);
    PyBuffer_Release(&pb);
    return result;
}

/* What listed() evaluates a board's triples with: each contender's best per triple rank
   multiset and low mask (row_tables) and its pairs of each suit's rank masks. */
typedef struct {
    const Spot *s;
    const int32_t *nf3, *lo3;
    int32_t (*pmask)[4][MAX_HOLE * (MAX_HOLE - 1) / 2];
    int (*npm)[4];
} Triples;

static inline void
start_best(int32_t *high, int32_t *low)
{
    for (int i = 0; i < MAX_ROWS; i++) {
        high[i] = 0;
        low[i] = NO_LOW;
    }
}

/* Each contender's best high and low (`high`, `low`) with the triple of cards x, y, z too. */
static inline void
triple_best(const Triples *t, int x, int y, int z, int32_t *high, int32_t *low)
{
    const Spot *s = t->s;
    int ra = x >> 2, rb = y >> 2, rc = z >> 2;
    int32_t ms = tab[TABLE_MS3][169 * ra + 13 * rb + rc];
    int32_t la = low_bit(ra), lb = low_bit(rb), lc = low_bit(rc);
    int32_t lm = (la && lb && lc && la != lb && la != lc && lb != lc) ? (la | lb | lc) : 0;
    int suit = x & 3;
    int suited = (y & 3) == suit && (z & 3) == suit;
    int32_t tmask = (1 << ra) | (1 << rb) | (1 << rc);
    const int32_t *fl = tab[TABLE_FL];
    for (int i = 0; i < s->n_rows; i++) {
        int32_t v = t->nf3[(size_t)i * N_TRIPLES + ms];
        if (suited)
            for (int p = 0; p < t->npm[i][suit]; p++)
                v = max32(v, fl[t->pmask[i][suit][p] | tmask]);
        high[i] = max32(high[i], v);
        if (s->hilo) {
            int32_t w = t->lo3[(size_t)i * 256 + lm];
            low[i] = w < low[i] ? w : low[i];
        }
    }
}

/* Every board of the known cards and `k` = 5 - len(known) of the unseen ones (1 to 3: the turn
   and the river to come, or the river), each evaluated and counted in its outcome: the flop's
   and the turn's exact enumeration (equity's _values_for and _outcomes, with M's subsets the
   boards). A contender's high on a board is the best over its ten triples of each triple's
   rank multiset (its best over its hole pairs, row_tables) and, for a triple of three cards of
   one suit, its flushes with its pairs of that suit; its low the best over the triples' low
   masks. */
static PyObject *
listed(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer hb, ub, kb, pb;
    int h, hilo;
    if (!PyArg_ParseTuple(args, "y*iy*y*y*p", &hb, &h, &ub, &kb, &pb, &hilo))
        return NULL;
    PyObject *result = NULL;
    Spot s;
    memset(&s, 0, sizeof s);
    Tally tally;
    memset(&tally, 0, sizeof tally);
    int32_t *nf3 = NULL, *lo3 = NULL, *high1 = NULL, *low1 = NULL;
    const unsigned char *known = kb.buf, *unseen = ub.buf;
    const int k = 5 - (int)kb.len, n = (int)ub.len;
    if (kb.len < 2 || kb.len > 4 || n < k) {
        PyErr_SetString(PyExc_ValueError, "known: 2 to 4 cards, and enough unseen ones to complete the board");
        goto done;
    }
    if (spot_open(&s, &tally, &hb, h, &ub, known, kb.len, &pb, hilo, 0) < 0)
        goto done;
    nf3 = PyMem_Malloc((size_t)s.n_rows * N_TRIPLES * sizeof(int32_t));
    lo3 = PyMem_Malloc((size_t)s.n_rows * 256 * sizeof(int32_t));
    if (nf3 == NULL || lo3 == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int32_t pmask[MAX_ROWS][4][MAX_HOLE * (MAX_HOLE - 1) / 2];
    int npm[MAX_ROWS][4];
    memset(npm, 0, sizeof npm);
    for (int i = 0; i < s.n_rows; i++) {
        row_tables(&s, i, nf3 + (size_t)i * N_TRIPLES, lo3 + (size_t)i * 256);
        const unsigned char *cards = s.holes + (size_t)i * h;
        for (int a = 0; a < h; a++)
            for (int b = a + 1; b < h; b++)
                if ((cards[a] & 3) == (cards[b] & 3)) {
                    int suit = cards[a] & 3;
                    pmask[i][suit][npm[i][suit]++] = (1 << (cards[a] >> 2)) | (1 << (cards[b] >> 2));
                }
    }
    Triples t = {&s, nf3, lo3, pmask, npm};
    const int b0 = (int)kb.len;
    /* each contender's best over the triples of known cards only, and over those of two known
       cards and each unseen card: a board's best is the best of those it holds and of its
       triples of two or three new cards */
    int32_t high0[MAX_ROWS], low0[MAX_ROWS];
    start_best(high0, low0);
    for (int a = 0; a < b0; a++)
        for (int b = a + 1; b < b0; b++)
            for (int c = b + 1; c < b0; c++)
                triple_best(&t, known[a], known[b], known[c], high0, low0);
    high1 = PyMem_Malloc((size_t)n * MAX_ROWS * sizeof(int32_t));
    low1 = PyMem_Malloc((size_t)n * MAX_ROWS * sizeof(int32_t));
    if (high1 == NULL || low1 == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int x = 0; x < n; x++) {
        int32_t *hx = high1 + (size_t)x * MAX_ROWS, *lx = low1 + (size_t)x * MAX_ROWS;
        memcpy(hx, high0, sizeof high0);
        memcpy(lx, low0, sizeof low0);
        for (int a = 0; a < b0; a++)
            for (int b = a + 1; b < b0; b++)
                triple_best(&t, known[a], known[b], unseen[x], hx, lx);
    }
    int at[3] = {0, 1, 2}; /* the new cards' places among the unseen, ascending */
    int32_t high[MAX_ROWS], low[MAX_ROWS];
    for (;;) {
        memcpy(high, high1 + (size_t)at[0] * MAX_ROWS, sizeof high);
        memcpy(low, low1 + (size_t)at[0] * MAX_ROWS, sizeof low);
        for (int e = 1; e < k; e++) {
            const int32_t *hx = high1 + (size_t)at[e] * MAX_ROWS, *lx = low1 + (size_t)at[e] * MAX_ROWS;
            for (int i = 0; i < s.n_rows; i++) {
                high[i] = max32(high[i], hx[i]);
                low[i] = lx[i] < low[i] ? lx[i] : low[i];
            }
        }
        for (int e = 0; e < k; e++) {
            for (int f = e + 1; f < k; f++) {
                for (int a = 0; a < b0; a++)
                    triple_best(&t, known[a], unseen[at[e]], unseen[at[f]], high, low);
                for (int g = f + 1; g < k; g++)
                    triple_best(&t, unseen[at[e]], unseen[at[f]], unseen[at[g]], high, low);
            }
        }
        uint64_t joint = 0;
        for (int q = 0; q < s.n_pots; q++) {
            const Pot *p = &s.pots[q];
            uint64_t code = high_mask(p, high);
            if (hilo) {
                int32_t lo = low[p->rows[0]];
                for (int e = 1; e < p->n; e++)
                    lo = low[p->rows[e]] < lo ? low[p->rows[e]] : lo;
                if (lo < NO_LOW)
                    for (int e = 0; e < p->n; e++)
                        code |= (uint64_t)(low[p->rows[e]] == lo) << (p->n + e);
            }
            joint |= code << p->shift;
        }
        if (tally_add(&tally, joint, 1) < 0)
            goto done;
        /* the next k-subset of the unseen cards, in lexicographic order */
        int e = k - 1;
        while (e >= 0 && at[e] == n - k + e)
            e--;
        if (e < 0)
            break;
        at[e]++;
        for (int x = e + 1; x < k; x++)
            at[x] = at[x - 1] + 1;
    }
    result = tally_result(&tally);
done:
    PyMem_Free(nf3);
    PyMem_Free(lo3);
    PyMem_Free(high1);
    PyMem_Free(low1);
    spot_close(&s, &tally);
    PyBuffer_Release(&hb);
    PyBuffer_Release(&ub);
    PyBuffer_Release(&kb);
    PyBuffer_Release(&pb);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Settlement of counted outcomes (exact spots)                                                */
/* ------------------------------------------------------------------------------------------ */

/* total += boards * part, or -1 with OverflowError set (the caller settles in Python then). */
static inline int
add_product(int64_t *total, int64_t boards, int64_t part)
{
    int64_t x;
    if (__builtin_mul_overflow(boards, part, &x) || __builtin_add_overflow(*total, x, total)) {
        PyErr_SetString(PyExc_OverflowError, "settle: a total beyond 64 bits");
        return -1;
    }
    return 0;
}

/* Each eligible player's share of `amount` split among the winners in `mask` (bits in odd-chip
   order, `n` players: the odd units to the first winners, split_evenly), times `boards`, added
   to `sums`. */
static inline int
add_split(int64_t *sums, int n, uint64_t mask, int64_t amount, int64_t boards)
{
    if (!mask)
        return 0;
    int winners = 0;
    for (uint64_t m = mask; m; m &= m - 1)
        winners++;
    int64_t base = amount / winners, odd = amount % winners;
    int rank = 0;
    for (int e = 0; e < n; e++) {
        if (mask >> e & 1) {
            if (add_product(&sums[e], boards, rank < odd ? base + 1 : base) < 0)
                return -1;
            rank++;
        }
    }
    return 0;
}

/* settle(keys, counts, pots, amounts, hilo) -> totals: _settle's exact settlement (no standard
   errors) of counted outcomes, as the room settles a board (hi/lo halves with the odd chip to the
   high half, a no-low board's whole pot to the high hand, ties shared with the odd chips to the
   first winners).
      keys, counts: the outcomes and their boards (as counts() returns them);
      pots: bytes, per contested pot (in pot order) its number of eligible players;
      amounts: per contested pot, a tuple of its runs' amounts (each >= 0);
      totals: per contested pot, per run, each eligible player's total over the boards of the
              high half then of the low half (hi/lo), or of the whole pot.
   OverflowError when a total does not fit 64 bits. */
static PyObject *
settle(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *keys, *boards, *amounts;
    Py_buffer pb;
    int hilo;
    if (!PyArg_ParseTuple(args, "O!O!y*O!p", &PyList_Type, &keys, &PyList_Type, &boards, &pb, &PyTuple_Type,
                          &amounts, &hilo))
        return NULL;
    PyObject *result = NULL;
    uint64_t *key = NULL;
    int64_t *count = NULL, *sums = NULL;
    const unsigned char *pots = pb.buf;
    const Py_ssize_t n_out = PyList_GET_SIZE(keys), n_pots = pb.len;
    if (PyList_GET_SIZE(boards) != n_out || PyTuple_GET_SIZE(amounts) != n_pots) {
        PyErr_SetString(PyExc_ValueError, "settle: keys and counts, pots and amounts differ in length");
        goto done;
    }
    int bits = 0;
    Py_ssize_t n_totals = 0;
    for (Py_ssize_t k = 0; k < n_pots; k++) {
        PyObject *runs = PyTuple_GET_ITEM(amounts, k);
        if (pots[k] < 2 || pots[k] > MAX_ROWS || !PyTuple_Check(runs)) {
            PyErr_SetString(PyExc_ValueError, "settle: malformed pots");
            goto done;
        }
        bits += hilo ? 2 * pots[k] : pots[k];
        n_totals += PyTuple_GET_SIZE(runs) * (hilo ? 2 : 1) * pots[k];
    }
    if (bits > MAX_BITS) {
        PyErr_SetString(PyExc_ValueError, "settle: outcomes too wide for 62 bits");
        goto done;
    }
    key = PyMem_Malloc((size_t)(n_out ? n_out : 1) * sizeof(uint64_t));
    count = PyMem_Malloc((size_t)(n_out ? n_out : 1) * sizeof(int64_t));
    sums = PyMem_Calloc((size_t)(n_totals ? n_totals : 1), sizeof(int64_t));
    if (key == NULL || count == NULL || sums == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t o = 0; o < n_out; o++) {
        key[o] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(keys, o));
        count[o] = PyLong_AsLongLong(PyList_GET_ITEM(boards, o));
        if (PyErr_Occurred())
            goto done;
    }
    int shift = 0;
    int64_t *out = sums;
    for (Py_ssize_t k = 0; k < n_pots; k++) {
        const int n = pots[k];
        const uint64_t full = ((uint64_t)1 << n) - 1;
        PyObject *runs = PyTuple_GET_ITEM(amounts, k);
        for (Py_ssize_t r = 0; r < PyTuple_GET_SIZE(runs); r++) {
            int64_t amount = PyLong_AsLongLong(PyTuple_GET_ITEM(runs, r));
            if (amount == -1 && PyErr_Occurred())
                goto done;
            if (amount < 0) {
                PyErr_SetString(PyExc_ValueError, "settle: a negative amount");
                goto done;
            }
            const int64_t half = amount / 2;
            for (Py_ssize_t o = 0; o < n_out; o++) {
                const uint64_t mask = key[o] >> shift;
                if (!hilo) {
                    if (add_split(out, n, mask & full, amount, count[o]) < 0)
                        goto done;
                    continue;
                }
                const uint64_t low = (mask >> n) & full;
                if (add_split(out, n, mask & full, low ? amount - half : amount, count[o]) < 0 ||
                    add_split(out + n, n, low, half, count[o]) < 0)
                    goto done;
            }
            out += hilo ? 2 * n : n;
        }
        shift += hilo ? 2 * n : n;
    }
    result = PyList_New(n_totals);
    if (result == NULL)
        goto done;
    for (Py_ssize_t e = 0; e < n_totals; e++) {
        PyObject *v = PyLong_FromLongLong(sums[e]);
        if (v == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, e, v);
    }
done:
    PyMem_Free(key);
    PyMem_Free(count);
    PyMem_Free(sums);
    PyBuffer_Release(&pb);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Hands on their own boards (Monte Carlo)                                                     */
/* ------------------------------------------------------------------------------------------ */

/* values(holes, hole_size, boards, hilo) -> (high, low): equity's hand_values, row by row.
      holes: bytes, N rows of hole_size cards, or one row: the same hand on every board (its
             best per triple rank multiset and low mask taken once, row_tables, so that a board
             is ten look-ups); boards: bytes, N rows of five cards;
      high, low: bytes, N native int32 each: each row's best high (the largest of its hole
      pairs' with its board triples': NF, or FL for five cards of one suit) and best low
      (LOWTAB, smaller is better; NO_LOW when none qualifies, or always when not hilo).
   The rows are Monte Carlo's drawn boards and hole cards: each is evaluated on its own. */
static PyObject *
values(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer hb, bb;
    int h, hilo;
    if (!PyArg_ParseTuple(args, "y*iy*p", &hb, &h, &bb, &hilo))
        return NULL;
    PyObject *result = NULL, *high = NULL, *low = NULL;
    const unsigned char *holes = hb.buf, *boards = bb.buf;
    if (n_classes == 0) {
        PyErr_SetString(PyExc_RuntimeError, "load() the tables first");
        goto done;
    }
    if (h < 2 || h > MAX_HOLE || hb.len % h != 0 || bb.len % 5 != 0 ||
        (hb.len / h != bb.len / 5 && hb.len != h)) {
        PyErr_SetString(PyExc_ValueError, "values: rows of 2 to 16 hole cards, one or as many as boards of five");
        goto done;
    }
    const Py_ssize_t n = bb.len / 5;
    const int fixed = hb.len == h && n != 1; /* one hand on every board */
    for (Py_ssize_t e = 0; e < hb.len; e++)
        if (holes[e] >= 52)
            goto not_a_card;
    for (Py_ssize_t e = 0; e < bb.len; e++)
        if (boards[e] >= 52)
            goto not_a_card;
    high = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int32_t));
    low = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int32_t));
    if (high == NULL || low == NULL)
        goto done;
    int32_t *hi_out = (int32_t *)PyBytes_AS_STRING(high), *lo_out = (int32_t *)PyBytes_AS_STRING(low);
    const int32_t *nf = tab[TABLE_NF], *fl = tab[TABLE_FL], *lowtab = tab[TABLE_LOW], *ms3 = tab[TABLE_MS3];
    static const int tri[10][3] = {{0, 1, 2}, {0, 1, 3}, {0, 1, 4}, {0, 2, 3}, {0, 2, 4},
                                   {0, 3, 4}, {1, 2, 3}, {1, 2, 4}, {1, 3, 4}, {2, 3, 4}};
    int32_t nf3[N_TRIPLES], lo3[256], pmask[4][MAX_HOLE * (MAX_HOLE - 1) / 2];
    int npm[4] = {0, 0, 0, 0};
    if (fixed) {
        Spot one;
        memset(&one, 0, sizeof one);
        one.h = h;
        one.hilo = hilo;
        one.holes = holes;
        row_tables(&one, 0, nf3, lo3);
        for (int a = 0; a < h; a++)
            for (int d = a + 1; d < h; d++)
                if ((holes[a] & 3) == (holes[d] & 3))
                    pmask[holes[a] & 3][npm[holes[a] & 3]++] = (1 << (holes[a] >> 2)) | (1 << (holes[d] >> 2));
    }
    for (Py_ssize_t row = 0; row < n; row++) {
        const unsigned char *b = boards + row * 5, *c = holes + (fixed ? 0 : row * h);
        int32_t t_ms[10], t_lm[10], t_suit[10], t_mask[10];
        for (int t = 0; t < 10; t++) {
            int x = b[tri[t][0]], y = b[tri[t][1]], z = b[tri[t][2]];
            int ra = x >> 2, rb = y >> 2, rc = z >> 2;
            int32_t la = low_bit(ra), lb = low_bit(rb), lc = low_bit(rc);
            t_ms[t] = ms3[169 * ra + 13 * rb + rc];
            t_lm[t] = (la && lb && lc && la != lb && la != lc && lb != lc) ? (la | lb | lc) : 0;
            t_suit[t] = ((y & 3) == (x & 3) && (z & 3) == (x & 3)) ? (x & 3) : -1;
            t_mask[t] = (1 << ra) | (1 << rb) | (1 << rc);
        }
        int32_t best = 0, best_low = NO_LOW;
        if (fixed) {
            for (int t = 0; t < 10; t++) {
                int32_t v = nf3[t_ms[t]];
                if (t_suit[t] >= 0)
                    for (int p = 0; p < npm[t_suit[t]]; p++)
                        v = max32(v, fl[pmask[t_suit[t]][p] | t_mask[t]]);
                best = max32(best, v);
                if (hilo)
                    best_low = lo3[t_lm[t]] < best_low ? lo3[t_lm[t]] : best_low;
            }
            hi_out[row] = best;
            lo_out[row] = hilo ? best_low : NO_LOW;
            continue;
        }
        for (int a = 0; a < h; a++) {
            for (int d = a + 1; d < h; d++) {
                const int32_t *row_nf = nf + (13 * (c[a] >> 2) + (c[d] >> 2)) * N_TRIPLES;
                const int suit = (c[a] & 3) == (c[d] & 3) ? (c[a] & 3) : -1;
                const int32_t pm = (1 << (c[a] >> 2)) | (1 << (c[d] >> 2));
                for (int t = 0; t < 10; t++) {
                    int32_t v = row_nf[t_ms[t]];
                    if (suit >= 0 && t_suit[t] == suit)
                        v = max32(v, fl[pm | t_mask[t]]);
                    best = max32(best, v);
                }
                if (hilo) {
                    int32_t la = low_bit(c[a] >> 2), lb = low_bit(c[d] >> 2);
                    const int32_t *row_low = lowtab + ((la && lb && la != lb) ? (la | lb) : 0) * 256;
                    for (int t = 0; t < 10; t++)
                        best_low = row_low[t_lm[t]] < best_low ? row_low[t_lm[t]] : best_low;
                }
            }
        }
        hi_out[row] = best;
        lo_out[row] = hilo ? best_low : NO_LOW;
    }
    result = PyTuple_Pack(2, high, low);
    goto done;
not_a_card:
    PyErr_SetString(PyExc_ValueError, "values: not a card");
done:
    Py_XDECREF(high);
    Py_XDECREF(low);
    PyBuffer_Release(&hb);
    PyBuffer_Release(&bb);
    return result;
}

static PyMethodDef methods[] = {
    {"load", load, METH_O, "Hand over equity.py's tables (a tuple of int32 buffers)."},
    {"counts", counts, METH_VARARGS, "A pre-flop spot's outcomes and the boards giving each."},
    {"counts_known", counts_known, METH_VARARGS, "The same with one board card known (Courchevel)."},
    {"listed", listed, METH_VARARGS, "Every board of the flop or turn evaluated and counted per outcome."},
    {"values", values, METH_VARARGS, "Each row's best high and low on its own board (Monte Carlo)."},
    {"settle", settle, METH_VARARGS, "Each eligible player's total per pot, run and half over counted outcomes."},
    {NULL, NULL, 0, NULL},
};

static void
free_module(void *module)
{
    (void)module;
    release_tables();
}

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_equity_kernel", "The all-in equity's exact board counting (see equity.py).", -1, methods,
    NULL, NULL, NULL, free_module,
};

PyMODINIT_FUNC
PyInit__equity_kernel(void)
{
    return PyModule_Create(&module);
}
