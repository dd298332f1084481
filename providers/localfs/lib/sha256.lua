-- SHA-256 (FIPS 180-4) in plain Lua 5.4, so the provider needs no native module to report a
-- file's digest. Lua integers are 64 bits wide: every 32-bit word is kept in the low half and
-- masked after each addition or left shift.

local M = {}

local MASK = 0xffffffff

-- The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
local K = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

-- The first 32 bits of the fractional parts of the square roots of the first 8 primes.
local INITIAL = {
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

local function rotr(x, n)
  return ((x >> n) | (x << (32 - n))) & MASK
end

-- Appends the 0x80 marker, zero bytes up to 56 mod 64, and the message length in bits as a
-- big-endian 64-bit number, so the result is a whole number of 64-byte blocks.
local function pad(message)
  local length = #message
  local zeros = (55 - length) % 64
  return message .. "\128" .. string.rep("\0", zeros) .. string.pack(">I8", length * 8)
end

-- Mixes one 64-byte block starting at `offset` into the eight-word state `h`.
local function compress(h, block, offset)
  local w = {}
  for i = 1, 16 do
    w[i] = string.unpack(">I4", block, offset + (i - 1) * 4)
  end
  for i = 17, 64 do
    local w15, w2 = w[i - 15], w[i - 2]
    local s0 = rotr(w15, 7) ~ rotr(w15, 18) ~ (w15 >> 3)
    local s1 = rotr(w2, 17) ~ rotr(w2, 19) ~ (w2 >> 10)
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) & MASK
  end

  local a, b, c, d, e, f, g, hh = h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
  for i = 1, 64 do
    local s1 = rotr(e, 6) ~ rotr(e, 11) ~ rotr(e, 25)
    local ch = (e & f) ~ (~e & g)
    local t1 = (hh + s1 + ch + K[i] + w[i]) & MASK
    local s0 = rotr(a, 2) ~ rotr(a, 13) ~ rotr(a, 22)
    local maj = (a & b) ~ (a & c) ~ (b & c)
    local t2 = (s0 + maj) & MASK
    hh, g, f, e, d, c, b, a = g, f, e, (d + t1) & MASK, c, b, a, (t1 + t2) & MASK
  end

  h[1] = (h[1] + a) & MASK
  h[2] = (h[2] + b) & MASK
  h[3] = (h[3] + c) & MASK
  h[4] = (h[4] + d) & MASK
  h[5] = (h[5] + e) & MASK
  h[6] = (h[6] + f) & MASK
  h[7] = (h[7] + g) & MASK
  h[8] = (h[8] + hh) & MASK
end

-- The digest of `message` (a Lua string of bytes) as 64 lowercase hex digits.
function M.hex(message)
  assert(type(message) == "string", "sha256.hex expects a string")
  local h = table.move(INITIAL, 1, 8, 1, {})
  local padded = pad(message)
  for offset = 1, #padded, 64 do
    compress(h, padded, offset)
  end
  return string.format(string.rep("%08x", 8), table.unpack(h))
end

return M
