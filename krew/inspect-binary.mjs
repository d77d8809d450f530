// Structural checks of a built SEA binary for the platforms this machine cannot run: the
// executable format's headers (CPU, kind), that postject placed the blob where that platform's
// node looks for it (Mach-O: segment NODE_SEA, section __NODE_SEA_BLOB; PE: an RT_RCDATA
// resource named NODE_SEA_BLOB; ELF: a note), and that the SEA fuse is flipped. Pure: bytes in,
// findings out (an empty list is a pass).
import { createHash } from "node:crypto";
import { SEA_FUSE } from "./sea.mjs";

const MACHO_CPU = { amd64: 0x01000007, arm64: 0x0100000c };
const PE_MACHINE = { amd64: 0x8664, arm64: 0xaa64 };
const ELF_MACHINE = { amd64: 62, arm64: 183 };

function fuseProblems(buf) {
  if (buf.includes(Buffer.from(`${SEA_FUSE}:1`))) return [];
  return [buf.includes(Buffer.from(`${SEA_FUSE}:0`)) ? "the SEA fuse is not flipped (no blob was injected)" : "no SEA fuse (not a node binary)"];
}

/** Mach-O 64-bit: { cpu, segments: [{ name, sections: [{ name, size }] }], codeSignature } */
export function readMachO(buf) {
  if (buf.readUInt32LE(0) !== 0xfeedfacf) throw new Error("not a 64-bit little-endian Mach-O file");
  const cpu = buf.readUInt32LE(4);
  const filetype = buf.readUInt32LE(12);
  const ncmds = buf.readUInt32LE(16);
  const segments = [];
  let codeSignature;
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = buf.readUInt32LE(at);
    const size = buf.readUInt32LE(at + 4);
    if (cmd === 0x19) {
      const name = buf.toString("latin1", at + 8, at + 24).replace(/\0+$/u, "");
      const nsects = buf.readUInt32LE(at + 64);
      const sections = [];
      for (let s = 0; s < nsects; s++) {
        const base = at + 72 + s * 80;
        sections.push({ name: buf.toString("latin1", base, base + 16).replace(/\0+$/u, ""), size: Number(buf.readBigUInt64LE(base + 40)) });
      }
      segments.push({ name, sections });
    } else if (cmd === 0x1d) {
      codeSignature = { offset: buf.readUInt32LE(at + 8), size: buf.readUInt32LE(at + 12) };
    }
    at += size;
  }
  return { cpu, filetype, segments, codeSignature };
}

const HASHES = { 1: "sha1", 2: "sha256" };

/**
 * The ad-hoc signature macOS checks on arm64: the embedded signature's CodeDirectory (no CMS
 * content, flag adhoc) and, for every page up to its codeLimit, the page's hash in the
 * directory equal to the file's bytes. Our own reading, independent of the signer
 * (krew/adhoc-sign, over go-macho), whose `show` is the second reading.
 */
export function verifyAdHocSignature(buf) {
  const m = readMachO(buf);
  if (!m.codeSignature) return ["no code signature (LC_CODE_SIGNATURE)"];
  const sb = m.codeSignature.offset;
  if (buf.readUInt32BE(sb) !== 0xfade0cc0) return ["the code signature is not an embedded-signature superblob"];
  const count = buf.readUInt32BE(sb + 8);
  let cd;
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32BE(sb + 12 + i * 8) === 0) cd = sb + buf.readUInt32BE(sb + 16 + i * 8);
  }
  if (cd === undefined || buf.readUInt32BE(cd) !== 0xfade0c02) return ["no CodeDirectory in the signature"];
  const problems = [];
  const flags = buf.readUInt32BE(cd + 12);
  if ((flags & 0x2) === 0) problems.push("the CodeDirectory is not marked ad hoc");
  const hashOffset = buf.readUInt32BE(cd + 16);
  const nCodeSlots = buf.readUInt32BE(cd + 28);
  const codeLimit = buf.readUInt32BE(cd + 32);
  const hashSize = buf[cd + 36];
  const algorithm = HASHES[buf[cd + 37]];
  const pageSize = 2 ** buf[cd + 39];
  if (!algorithm) return [...problems, `unknown hash type ${buf[cd + 37]}`];
  if (codeLimit !== sb) problems.push(`codeLimit ${codeLimit} does not end where the signature starts (${sb})`);
  if (nCodeSlots !== Math.ceil(codeLimit / pageSize)) problems.push(`${nCodeSlots} code slots for ${codeLimit} bytes of ${pageSize}-byte pages`);
  let bad = 0;
  for (let i = 0; i < nCodeSlots; i++) {
    const page = buf.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
    const want = buf.subarray(cd + hashOffset + i * hashSize, cd + hashOffset + (i + 1) * hashSize);
    if (!createHash(algorithm).update(page).digest().subarray(0, hashSize).equals(want)) bad++;
  }
  if (bad > 0) problems.push(`${bad} of ${nCodeSlots} pages do not match their hash in the CodeDirectory`);
  return problems;
}

export function inspectMachO(buf, arch, blobSize) {
  const problems = [];
  const m = readMachO(buf);
  if (m.cpu !== MACHO_CPU[arch]) problems.push(`CPU type 0x${m.cpu.toString(16)}, expected ${arch}`);
  if (m.filetype !== 2) problems.push(`file type ${m.filetype}, expected an executable (2)`);
  const sea = m.segments.find((s) => s.name === "NODE_SEA");
  const section = sea?.sections.find((s) => s.name === "__NODE_SEA_BLOB");
  if (!section) problems.push("no NODE_SEA segment with a __NODE_SEA_BLOB section");
  else if (blobSize !== undefined && section.size !== blobSize) problems.push(`__NODE_SEA_BLOB holds ${section.size} bytes, the blob has ${blobSize}`);
  if (!m.codeSignature) problems.push("no code signature (LC_CODE_SIGNATURE)");
  return [...problems, ...fuseProblems(buf)];
}

/** PE32+: { machine, subsystem, sections: [{ name, offset, size }] } */
export function readPe(buf) {
  const pe = buf.readUInt32LE(0x3c);
  if (buf.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error("not a PE file");
  const machine = buf.readUInt16LE(pe + 4);
  const count = buf.readUInt16LE(pe + 6);
  const optionalSize = buf.readUInt16LE(pe + 20);
  const optional = pe + 24;
  const subsystem = buf.readUInt16LE(optional + 68);
  const sections = [];
  for (let i = 0; i < count; i++) {
    const base = optional + optionalSize + i * 40;
    sections.push({ name: buf.toString("latin1", base, base + 8).replace(/\0+$/u, ""), size: buf.readUInt32LE(base + 16), offset: buf.readUInt32LE(base + 20) });
  }
  return { machine, subsystem, sections };
}

export function inspectPe(buf, arch) {
  const problems = [];
  const p = readPe(buf);
  if (p.machine !== PE_MACHINE[arch]) problems.push(`machine 0x${p.machine.toString(16)}, expected ${arch}`);
  if (p.subsystem !== 3) problems.push(`subsystem ${p.subsystem}, expected the console subsystem (3)`);
  const rsrc = p.sections.find((s) => s.name === ".rsrc");
  const name = Buffer.from("NODE_SEA_BLOB", "utf16le");
  if (!rsrc || !buf.subarray(rsrc.offset, rsrc.offset + rsrc.size).includes(name)) problems.push("no NODE_SEA_BLOB resource in .rsrc");
  return [...problems, ...fuseProblems(buf)];
}

/** The names of the ELF file's notes (every PT_NOTE segment), e.g. "GNU", "NODE_SEA_BLOB". */
export function elfNoteNames(buf) {
  const phoff = Number(buf.readBigUInt64LE(0x20));
  const phentsize = buf.readUInt16LE(0x36);
  const phnum = buf.readUInt16LE(0x38);
  const names = [];
  for (let i = 0; i < phnum; i++) {
    const ph = phoff + i * phentsize;
    if (buf.readUInt32LE(ph) !== 4) continue; // PT_NOTE
    const start = Number(buf.readBigUInt64LE(ph + 8));
    const end = start + Number(buf.readBigUInt64LE(ph + 32));
    for (let at = start; at + 12 <= end;) {
      const namesz = buf.readUInt32LE(at);
      const descsz = buf.readUInt32LE(at + 4);
      names.push(buf.toString("latin1", at + 12, at + 12 + namesz).replace(/\0+$/u, ""));
      at += 12 + Math.ceil(namesz / 4) * 4 + Math.ceil(descsz / 4) * 4;
    }
  }
  return names;
}

export function inspectElf(buf, arch) {
  const problems = [];
  if (buf.toString("latin1", 0, 4) !== "\x7fELF") throw new Error("not an ELF file");
  const machine = buf.readUInt16LE(18);
  if (machine !== ELF_MACHINE[arch]) problems.push(`machine ${machine}, expected ${arch}`);
  if (!elfNoteNames(buf).includes("NODE_SEA_BLOB")) problems.push("no NODE_SEA_BLOB note");
  return [...problems, ...fuseProblems(buf)];
}

export function inspectBinary(buf, os, arch, blobSize) {
  if (os === "darwin") return inspectMachO(buf, arch, blobSize);
  if (os === "windows") return inspectPe(buf, arch);
  return inspectElf(buf, arch);
}
