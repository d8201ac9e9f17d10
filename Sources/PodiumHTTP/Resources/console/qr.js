"use strict";
// A QR code (ISO/IEC 18004) of a text, as an SVG element: byte mode (UTF-8), error correction level M (15% of the
// code may be lost), the smallest version of 1 to 40 that holds the text, and the mask with the lowest penalty.
// The console shows display links with it, so a classroom TV's browser can open one from a phone's camera.
// Written after Project Nayuki's QR Code generator (MIT), which documents each step; the browser tests decode the
// codes it draws with zxing-cpp.
const PodiumQR = (() => {
  // Level M, by version (index 0 unused): error correction codewords per block, and blocks.
  const ECC_PER_BLOCK = [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];
  const BLOCKS = [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26,
    28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
  const LEVEL_M_BITS = 0;

  // Modules that carry data (not function patterns) in a version.
  function rawDataModules(version) {
    let result = (16 * version + 128) * version + 64;
    if (version >= 2) {
      const alignments = Math.floor(version / 7) + 2;
      result -= (25 * alignments - 10) * alignments - 55;
      if (version >= 7) result -= 36;
    }
    return result;
  }
  const dataCodewords = (version) => Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[version] * BLOCKS[version];

  // GF(2^8) with the polynomial x^8 + x^4 + x^3 + x^2 + 1.
  function multiply(x, y) {
    let z = 0;
    for (let i = 7; i >= 0; i--) {
      z = (z << 1) ^ ((z >>> 7) * 0x11d);
      z ^= ((y >>> i) & 1) * x;
    }
    return z;
  }
  function divisor(degree) {
    const result = new Array(degree - 1).fill(0).concat([1]);
    let root = 1;
    for (let i = 0; i < degree; i++) {
      for (let j = 0; j < result.length; j++) {
        result[j] = multiply(result[j], root);
        if (j + 1 < result.length) result[j] ^= result[j + 1];
      }
      root = multiply(root, 0x02);
    }
    return result;
  }
  function remainder(data, by) {
    const result = by.map(() => 0);
    for (const byte of data) {
      const factor = byte ^ result.shift();
      result.push(0);
      by.forEach((coefficient, i) => { result[i] ^= multiply(coefficient, factor); });
    }
    return result;
  }

  // The data codewords of `bytes` in byte mode for `version`, padded.
  function encode(bytes, version) {
    const bits = [];
    const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
    put(0b0100, 4);
    put(bytes.length, version <= 9 ? 8 : 16);
    bytes.forEach((byte) => put(byte, 8));
    const capacity = dataCodewords(version) * 8;
    put(0, Math.min(4, capacity - bits.length));
    put(0, (8 - (bits.length % 8)) % 8);
    for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
    const codewords = [];
    for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((value, bit) => (value << 1) | bit, 0));
    return codewords;
  }

  // Error correction added per block, then the blocks interleaved.
  function interleave(data, version) {
    const blocks = BLOCKS[version], eccLength = ECC_PER_BLOCK[version];
    const raw = Math.floor(rawDataModules(version) / 8);
    const shortBlocks = blocks - (raw % blocks), shortLength = Math.floor(raw / blocks);
    const by = divisor(eccLength);
    const made = [];
    for (let i = 0, k = 0; i < blocks; i++) {
      const block = data.slice(k, k + shortLength - eccLength + (i < shortBlocks ? 0 : 1));
      k += block.length;
      const ecc = remainder(block, by);
      if (i < shortBlocks) block.push(0);
      made.push(block.concat(ecc));
    }
    const result = [];
    for (let i = 0; i < made[0].length; i++) {
      made.forEach((block, j) => { if (i !== shortLength - eccLength || j >= shortBlocks) result.push(block[i]); });
    }
    return result;
  }

  function alignmentPositions(version, size) {
    if (version === 1) return [];
    const count = Math.floor(version / 7) + 2;
    const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
    const result = [6];
    for (let position = size - 7; result.length < count; position -= step) result.splice(1, 0, position);
    return result;
  }

  const MASKS = [
    (x, y) => (x + y) % 2 === 0, (x, y) => y % 2 === 0, (x) => x % 3 === 0, (x, y) => (x + y) % 3 === 0,
    (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0, (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
    (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0, (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
  ];

  // The modules (rows of booleans, true dark) of one version and mask.
  function draw(codewords, version, mask) {
    const size = version * 4 + 17;
    const dark = Array.from({ length: size }, () => new Array(size).fill(false));
    const reserved = Array.from({ length: size }, () => new Array(size).fill(false));
    const set = (x, y, value) => { dark[y][x] = value; reserved[y][x] = true; };
    for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const distance = Math.max(Math.abs(dx), Math.abs(dy));
          if (cx + dx >= 0 && cx + dx < size && cy + dy >= 0 && cy + dy < size) set(cx + dx, cy + dy, distance !== 2 && distance !== 4);
        }
      }
    }
    const positions = alignmentPositions(version, size);
    positions.forEach((ax, i) => positions.forEach((ay, j) => {
      const corner = (i === 0 && j === 0) || (i === 0 && j === positions.length - 1) || (i === positions.length - 1 && j === 0);
      if (corner) return;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }));
    // Format bits (level M and the mask, with their BCH code), in both copies, and the dark module.
    const data = (LEVEL_M_BITS << 3) | mask;
    let rest = data;
    for (let i = 0; i < 10; i++) rest = (rest << 1) ^ ((rest >>> 9) * 0x537);
    const format = ((data << 10) | rest) ^ 0x5412;
    const bit = (value, i) => ((value >>> i) & 1) !== 0;
    for (let i = 0; i <= 5; i++) set(8, i, bit(format, i));
    set(8, 7, bit(format, 6)); set(8, 8, bit(format, 7)); set(7, 8, bit(format, 8));
    for (let i = 9; i < 15; i++) set(14 - i, 8, bit(format, i));
    for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(format, i));
    for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(format, i));
    set(8, size - 8, true);
    if (version >= 7) {
      let remainderBits = version;
      for (let i = 0; i < 12; i++) remainderBits = (remainderBits << 1) ^ ((remainderBits >>> 11) * 0x1f25);
      const bits = (version << 12) | remainderBits;
      for (let i = 0; i < 18; i++) {
        const a = size - 11 + (i % 3), b = Math.floor(i / 3);
        set(a, b, bit(bits, i)); set(b, a, bit(bits, i));
      }
    }
    // Data in two-module columns from the bottom right, up and down in turn, skipping the timing column.
    let index = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let step = 0; step < size; step++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j, upward = ((right + 1) & 2) === 0, y = upward ? size - 1 - step : step;
          if (reserved[y][x]) continue;
          const value = index < codewords.length * 8 && bit(codewords[index >>> 3], 7 - (index & 7));
          index++;
          dark[y][x] = value !== MASKS[mask](x, y);
        }
      }
    }
    return dark;
  }

  // The standard's penalty: runs of five or more, 2×2 blocks, finder-like patterns, and imbalance of dark and light.
  function penalty(dark) {
    const size = dark.length;
    let score = 0;
    const lines = [];
    for (let i = 0; i < size; i++) {
      lines.push(dark[i].map(Number).join(""));
      lines.push(dark.map((row) => Number(row[i])).join(""));
    }
    for (const line of lines) {
      for (const run of line.match(/0{5,}|1{5,}/g) || []) score += run.length - 2;
      for (const pattern of [/(?=10111010000)/g, /(?=00001011101)/g]) score += 40 * (line.match(pattern) || []).length;
    }
    for (let y = 0; y + 1 < size; y++) {
      for (let x = 0; x + 1 < size; x++) {
        const value = dark[y][x];
        if (dark[y][x + 1] === value && dark[y + 1][x] === value && dark[y + 1][x + 1] === value) score += 3;
      }
    }
    const darkCount = dark.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
    score += 10 * Math.floor(Math.abs(darkCount * 20 - size * size * 10) / (size * size));
    return score;
  }

  /// The modules of `text`'s code, or null when it is too long for version 40.
  function modules(text) {
    const bytes = [...new TextEncoder().encode(text)];
    let version = 1;
    while (version <= 40 && 4 + (version <= 9 ? 8 : 16) + bytes.length * 8 > dataCodewords(version) * 8) version++;
    if (version > 40) return null;
    const codewords = interleave(encode(bytes, version), version);
    let best = null, bestScore = Infinity;
    for (let mask = 0; mask < 8; mask++) {
      const dark = draw(codewords, version, mask);
      const score = penalty(dark);
      if (score < bestScore) { best = dark; bestScore = score; }
    }
    return best;
  }

  /// An SVG of `text`'s code with a four-module quiet zone, `pixels` wide, labelled for screen readers.
  function svg(text, pixels, label) {
    const dark = modules(text);
    if (!dark) return null;
    const NS = "http://www.w3.org/2000/svg";
    const side = dark.length + 8;
    const root = document.createElementNS(NS, "svg");
    for (const [name, value] of Object.entries({ viewBox: `0 0 ${side} ${side}`, width: pixels, height: pixels, role: "img",
      "aria-label": label, "shape-rendering": "crispEdges" })) root.setAttribute(name, String(value));
    const background = document.createElementNS(NS, "rect");
    for (const [name, value] of Object.entries({ width: side, height: side, fill: "#fff" })) background.setAttribute(name, String(value));
    let path = "";
    dark.forEach((row, y) => row.forEach((value, x) => { if (value) path += `M${x + 4},${y + 4}h1v1h-1z`; }));
    const modulesPath = document.createElementNS(NS, "path");
    modulesPath.setAttribute("d", path);
    modulesPath.setAttribute("fill", "#000");
    root.append(background, modulesPath);
    return root;
  }

  return { modules, svg };
})();
