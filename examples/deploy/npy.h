/* A small .npy reader and writer for the deploy examples: version 1.0
 * files, C order, little-endian, the element types of graphopt_aot_tensor.
 * Include an AOT header (graph-run --emit-header) first. */
#ifndef GRAPHOPT_EXAMPLES_NPY_H
#define GRAPHOPT_EXAMPLES_NPY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct npy_array {
  graphopt_aot_tensor tensor; /* points into shape and data below */
  int64_t shape[16];
  void *data;
} npy_array;

static const char *const npy_descr_[] = {"<f4", "<f2", "<u2" /* bf16 bits */,
                                         "|b1", "<i4", "<i8",
                                         "<f8", "|i1", "<i2",
                                         "|u1", "<u2", "<u4",
                                         "<u8"};
static const size_t npy_size_[] = {4, 2, 2, 1, 4, 8, 8, 1, 2, 1, 2, 4, 8};

static int npy_elements_(const graphopt_aot_tensor *t, int64_t *count) {
  int d;
  *count = 1;
  for (d = 0; d < t->rank; ++d)
    *count *= t->shape[d];
  return 0;
}

/* Reads `path` into `a`; returns 0, or -1 with a message on stderr. */
static int npy_read(const char *path, npy_array *a) {
  unsigned char pre[10];
  char header[4096], *p;
  size_t len, want;
  int64_t count;
  int code = -1, i;
  FILE *f = fopen(path, "rb");
  memset(a, 0, sizeof *a);
  if (!f || fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) ||
      pre[6] != 1) {
    fprintf(stderr, "%s: not a version 1 .npy file\n", path);
    if (f)
      fclose(f);
    return -1;
  }
  len = pre[8] | (size_t)pre[9] << 8;
  if (len >= sizeof header || fread(header, 1, len, f) != len) {
    fprintf(stderr, "%s: bad .npy header\n", path);
    fclose(f);
    return -1;
  }
  header[len] = 0;
  p = strstr(header, "'descr': '");
  for (i = 0; p && i < 13; ++i)
    if (!strncmp(p + 10, npy_descr_[i], 3)) {
      code = i;
      break;
    }
  if (code == GRAPHOPT_AOT_BF16)
    code = GRAPHOPT_AOT_U16; /* <u2 reads as uint16 */
  if (code < 0 || strstr(header, "'fortran_order': True")) {
    fprintf(stderr, "%s: unsupported element type or Fortran order\n", path);
    fclose(f);
    return -1;
  }
  p = strchr(strstr(header, "'shape':"), '(') + 1;
  a->tensor.rank = 0;
  while (*p && *p != ')') {
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p)
      break;
    a->shape[a->tensor.rank++] = v;
    p = end;
    while (*p == ',' || *p == ' ')
      ++p;
  }
  a->tensor.dtype = code;
  a->tensor.shape = a->shape;
  npy_elements_(&a->tensor, &count);
  want = (size_t)count * npy_size_[code];
  a->data = malloc(want ? want : 1);
  if (!a->data || fread(a->data, 1, want, f) != want) {
    fprintf(stderr, "%s: truncated data\n", path);
    fclose(f);
    return -1;
  }
  a->tensor.data = a->data;
  fclose(f);
  return 0;
}

/* Writes tensor `t` to `path`; returns 0, or -1 with a message. */
static int npy_write(const char *path, const graphopt_aot_tensor *t) {
  char header[256];
  int n, d;
  int64_t count;
  size_t bytes;
  FILE *f = fopen(path, "wb");
  if (!f || t->dtype < 0 || t->dtype > 12) {
    fprintf(stderr, "cannot write %s\n", path);
    if (f)
      fclose(f);
    return -1;
  }
  n = snprintf(header, sizeof header,
               "{'descr': '%s', 'fortran_order': False, 'shape': (",
               npy_descr_[t->dtype]);
  for (d = 0; d < t->rank; ++d)
    n += snprintf(header + n, sizeof header - n, "%lld,%s",
                  (long long)t->shape[d], d + 1 < t->rank ? " " : "");
  n += snprintf(header + n, sizeof header - n, "), }");
  while ((10 + n + 1) % 64)
    header[n++] = ' ';
  header[n++] = '\n';
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc(n & 0xff, f);
  fputc(n >> 8, f);
  fwrite(header, 1, (size_t)n, f);
  npy_elements_(t, &count);
  bytes = (size_t)count * npy_size_[t->dtype];
  if (fwrite(t->data, 1, bytes, f) != bytes) {
    fprintf(stderr, "cannot write %s\n", path);
    fclose(f);
    return -1;
  }
  fclose(f);
  return 0;
}

#endif /* GRAPHOPT_EXAMPLES_NPY_H */
