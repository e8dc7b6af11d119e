/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sha256.c - SHA-256 as specified by FIPS 180-4, sections 4.1.2 (functions),
 * 4.2.2 (constants), 5.1.1 (padding), 5.3.3 (initial value) and 6.2
 * (computation).  Portable C: bytes are loaded big-endian by hand.
 */
#include "sha256.h"

#include <string.h>

/* 4.2.2: the first 32 bits of the fractional parts of the cube roots of
 * the first 64 primes */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* 4.1.2 */
#define CH(x, y, z)  (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x)     (rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22))
#define BSIG1(x)     (rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25))
#define SSIG0(x)     (rotr(x, 7) ^ rotr(x, 18) ^ ((x) >> 3))
#define SSIG1(x)     (rotr(x, 17) ^ rotr(x, 19) ^ ((x) >> 10))

static inline uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/*
 * One round of 6.2.2 step 3, with the eight working variables renamed
 * instead of shifted: round t + 1 passes them rotated by one place.
 */
#define ROUND(a, b, c, d, e, f, g, h, t)                                       \
	do {                                                                   \
		uint32_t t1 = h + BSIG1(e) + CH(e, f, g) + sha256_k[t] + w[t]; \
		d += t1;                                                       \
		h = t1 + BSIG0(a) + MAJ(a, b, c);                              \
	} while (0)

/* 6.2.2: compress @n consecutive 64-byte blocks at @p into s->h */
static void sha256_blocks(struct sha256 *s, const uint8_t *p, size_t n)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;
	int t;

	for (; n; n--, p += SHA256_BLOCK) {
		/* step 1: the message schedule */
		for (t = 0; t < 16; t++)
			w[t] = load_be32(p + 4 * t);
		for (t = 16; t < 64; t++)
			w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) +
			       w[t - 16];
		/* steps 2 and 3, eight rounds per pass */
		a = s->h[0];
		b = s->h[1];
		c = s->h[2];
		d = s->h[3];
		e = s->h[4];
		f = s->h[5];
		g = s->h[6];
		h = s->h[7];
		for (t = 0; t < 64; t += 8) {
			ROUND(a, b, c, d, e, f, g, h, t);
			ROUND(h, a, b, c, d, e, f, g, t + 1);
			ROUND(g, h, a, b, c, d, e, f, t + 2);
			ROUND(f, g, h, a, b, c, d, e, t + 3);
			ROUND(e, f, g, h, a, b, c, d, t + 4);
			ROUND(d, e, f, g, h, a, b, c, t + 5);
			ROUND(c, d, e, f, g, h, a, b, t + 6);
			ROUND(b, c, d, e, f, g, h, a, t + 7);
		}
		/* step 4 */
		s->h[0] += a;
		s->h[1] += b;
		s->h[2] += c;
		s->h[3] += d;
		s->h[4] += e;
		s->h[5] += f;
		s->h[6] += g;
		s->h[7] += h;
	}
}

void sha256_init(struct sha256 *s)
{
	/* 5.3.3: the first 32 bits of the fractional parts of the square
	 * roots of the first 8 primes */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->nbuf = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t n;

	if (!len)
		return;
	s->len += len;
	if (s->nbuf) {
		n = SHA256_BLOCK - s->nbuf;
		if (n > len)
			n = len;
		memcpy(s->buf + s->nbuf, p, n);
		s->nbuf += n;
		p += n;
		len -= n;
		if (s->nbuf < SHA256_BLOCK)
			return;
		sha256_blocks(s, s->buf, 1);
		s->nbuf = 0;
	}
	n = len / SHA256_BLOCK;
	if (n) {
		sha256_blocks(s, p, n);
		p += n * SHA256_BLOCK;
		len -= n * SHA256_BLOCK;
	}
	if (len) {
		memcpy(s->buf, p, len);
		s->nbuf = len;
	}
}

void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST])
{
	uint64_t bits = s->len * 8;
	int i;

	/* 5.1.1: a 1 bit, zeros up to 56 mod 64 bytes, the 64-bit length */
	s->buf[s->nbuf++] = 0x80;
	if (s->nbuf > SHA256_BLOCK - 8) {
		memset(s->buf + s->nbuf, 0, SHA256_BLOCK - s->nbuf);
		sha256_blocks(s, s->buf, 1);
		s->nbuf = 0;
	}
	memset(s->buf + s->nbuf, 0, SHA256_BLOCK - 8 - s->nbuf);
	store_be32(s->buf + SHA256_BLOCK - 8, (uint32_t)(bits >> 32));
	store_be32(s->buf + SHA256_BLOCK - 4, (uint32_t)bits);
	sha256_blocks(s, s->buf, 1);
	s->nbuf = 0;
	for (i = 0; i < 8; i++)
		store_be32(out + 4 * i, s->h[i]);
}

void sha256_to_hex(const uint8_t digest[SHA256_DIGEST], char out[SHA256_HEX])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < SHA256_DIGEST; i++) {
		out[2 * i] = hex[digest[i] >> 4];
		out[2 * i + 1] = hex[digest[i] & 15];
	}
	out[2 * SHA256_DIGEST] = '\0';
}

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX])
{
	struct sha256 s;
	uint8_t d[SHA256_DIGEST];

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, d);
	sha256_to_hex(d, out);
}
