/*
 * A Kinetics engine in C: backward (implicit) Euler springs, one step per
 * frame. Speaks the line protocol of docs/engines.md on standard input and
 * output; answers spring cases only, so run it with --suite spring:
 *
 *   cc -O2 -o backward_euler Examples/engines/backward_euler.c
 *   kinetics verify --suite spring --engine-command ./backward_euler
 *
 * One step of length h solves the implicit equations
 *   v' = v + h(-k(x' - to) - c v')/m,   x' = x + h v'
 * for v' in closed form: v' = (v - h k/m (x - to)) / (1 + h c/m + h^2 k/m).
 *
 * The parser reads only what the protocol writes: one flat JSON object per
 * line, numbers and one array of numbers; it is no general JSON reader.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text after "key": in line, or NULL. */
static const char *field(const char *line, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(line, pattern);
    return at ? at + strlen(pattern) : NULL;
}

static int number(const char *line, const char *key, double *value) {
    const char *at = field(line, key);
    if (!at) return 0;
    char *end;
    *value = strtod(at, &end);
    return end != at;
}

/* Copies the string value of "id" (escapes kept as written) into id. */
static int identifier(const char *line, char *id, size_t size) {
    const char *at = field(line, "id");
    if (!at || *at != '"') return 0;
    at++;
    size_t n = 0;
    while (at[n] && at[n] != '"' && n + 1 < size) {
        if (at[n] == '\\' && at[n + 1]) n++;
        n++;
    }
    memcpy(id, at, n);
    id[n] = 0;
    return 1;
}

/* Reads the array "key":[...] into a growing buffer; the count, or -1. */
static long array(const char *line, const char *key, double **values, size_t *capacity) {
    const char *at = field(line, key);
    if (!at || *at != '[') return -1;
    at++;
    long count = 0;
    while (*at && *at != ']') {
        char *end;
        double value = strtod(at, &end);
        if (end == at) return -1;
        if ((size_t)count == *capacity) {
            *capacity = *capacity ? 2 * *capacity : 1024;
            *values = realloc(*values, *capacity * sizeof **values);
            if (!*values) return -1;
        }
        (*values)[count++] = value;
        at = end;
        if (*at == ',') at++;
    }
    return count;
}

int main(void) {
    char *line = NULL;
    size_t lineCapacity = 0;
    double *times = NULL;
    size_t timesCapacity = 0;
    char id[256];
    while (getline(&line, &lineCapacity, stdin) > 0) {
        if (!identifier(line, id, sizeof id)) continue;
        double protocol = 0;
        if (!number(line, "protocol", &protocol) || protocol != 1) {
            printf("{\"id\":\"%s\",\"error\":\"this engine speaks protocol 1\"}\n", id);
            continue;
        }
        if (!strstr(line, "\"kind\":\"spring\"")) {
            printf("{\"id\":\"%s\",\"error\":\"this engine answers springs only (--suite spring)\"}\n", id);
            continue;
        }
        double k, c, m, x, v, to;
        long count = array(line, "times", &times, &timesCapacity);
        if (count < 1 || !number(line, "tension", &k) || !number(line, "friction", &c) || !number(line, "mass", &m)
            || !number(line, "from", &x) || !number(line, "velocity", &v) || !number(line, "to", &to)) {
            printf("{\"id\":\"%s\",\"error\":\"a field of the case is missing\"}\n", id);
            continue;
        }
        printf("{\"id\":\"%s\",\"values\":[", id);
        double previous = times[0];
        for (long i = 0; i < count; i++) {
            double h = times[i] - previous;
            previous = times[i];
            if (h > 0) {
                v = (v - h * k / m * (x - to)) / (1 + h * c / m + h * h * k / m);
                x += h * v;
            }
            printf(i ? ",%.17g" : "%.17g", x);
        }
        printf("]}\n");
    }
    free(line);
    free(times);
    return 0;
}
