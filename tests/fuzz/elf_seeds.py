#!/usr/bin/env python3
# tests/fuzz/elf_seeds.py TEMPLATE OUTDIR: write broken variants of the
# static x86-64 ELF program TEMPLATE into OUTDIR, one per header check of
# kernel/fs/binfmt_elf.c, each named after the check it breaks. They seed the
# ELF fuzz target (make fuzz) and tests/elf_loader.bats runs each under umk.
# They are generated at build time (make fuzz, make test) rather than kept
# in the tree.
import os
import struct
import sys

EHDR = '<16sHHIQQQIHHHHHH'
PHDR = '<IIQQQQQQ'
PT_LOAD, PT_INTERP = 1, 3


def main():
    tmpl, out = sys.argv[1], sys.argv[2]
    data = open(tmpl, 'rb').read()
    os.makedirs(out, exist_ok=True)
    eh = list(struct.unpack_from(EHDR, data))
    phoff, phnum = eh[5], eh[10]
    phs = [list(struct.unpack_from(PHDR, data, phoff + 56 * i)) for i in range(phnum)]
    loads = [i for i, p in enumerate(phs) if p[0] == PT_LOAD and p[6]]

    def write(name, ehdr=None, phdrs=None, cut=None, tail=b''):
        b = bytearray(data + tail)
        struct.pack_into(EHDR, b, 0, *(ehdr or eh))
        for i, p in enumerate(phdrs or phs):
            struct.pack_into(PHDR, b, phoff + 56 * i, *p)
        b = b[:cut] if cut is not None else b
        open(os.path.join(out, name), 'wb').write(bytes(b))
        os.chmod(os.path.join(out, name), 0o755)

    def eh_with(**kw):
        e = list(eh)
        names = ['ident', 'type', 'machine', 'version', 'entry', 'phoff', 'shoff',
                 'flags', 'ehsize', 'phentsize', 'phnum', 'shentsize', 'shnum', 'shstrndx']
        for k, v in kw.items():
            e[names.index(k)] = v
        return e

    def ph_with(i, **kw):
        p = [list(x) for x in phs]
        names = ['type', 'flags', 'offset', 'vaddr', 'paddr', 'filesz', 'memsz', 'align']
        for k, v in kw.items():
            p[i][names.index(k)] = v
        return p

    ident = bytearray(eh[0])
    # (A "#!" script is binfmt_script's, not the ELF loader's.)
    for name, b in (('empty', b''), ('text', b'echo hi\n')):
        open(os.path.join(out, name), 'wb').write(b)
        os.chmod(os.path.join(out, name), 0o755)
    for n in (3, 19, 40, 63):
        write('truncated-%d' % n, cut=n)
    write('truncated-phdrs', cut=phoff + 20)
    write('class32', eh_with(ident=bytes(ident[:4]) + b'\x01' + bytes(ident[5:])))
    write('big-endian', eh_with(ident=bytes(ident[:5]) + b'\x02' + bytes(ident[6:])))
    write('machine-i386', eh_with(machine=3))
    write('type-rel', eh_with(type=1))
    write('type-core', eh_with(type=4))
    write('phentsize-32', eh_with(phentsize=32))
    write('phnum-0', eh_with(phnum=0))
    write('phnum-100', eh_with(phnum=100))
    write('phoff-past-end', eh_with(phoff=1 << 40))
    write('phoff-wraps', eh_with(phoff=(1 << 64) - 8))
    write('entry-outside', eh_with(entry=1 << 46))
    l0 = loads[0]
    write('filesz-gt-memsz', phdrs=ph_with(l0, filesz=phs[l0][6] + 1))
    write('offset-past-end', phdrs=ph_with(l0, offset=1 << 40))
    write('offset-wraps', phdrs=ph_with(l0, offset=(1 << 64) - 4096))
    write('misaligned', phdrs=ph_with(l0, vaddr=phs[l0][3] + 1))
    write('vaddr-kernel', phdrs=ph_with(l0, vaddr=0xffff800000000000))
    write('memsz-wraps', phdrs=ph_with(l0, memsz=(1 << 64) - 4096))
    # A span just over the loader's 1 GiB (IMAGE_MAX) that still fits in
    # every user window umk has: 2 GiB in its ASan build.
    write('memsz-huge', phdrs=ph_with(loads[-1], memsz=(1 << 30) + (1 << 20)))
    if len(loads) > 1:
        write('overlap', phdrs=ph_with(loads[1], vaddr=phs[l0][3], offset=phs[l0][2]))
    # A dynamic loader that does not exist (execve: ENOENT), and a PT_INTERP
    # that is not a NUL-terminated path (ENOEXEC).
    ld = b'/no/such/ld-linux-x86-64.so.2\0'
    write('interp', phdrs=ph_with(len(phs) - 1, type=PT_INTERP, offset=len(data),
                                  filesz=len(ld), memsz=len(ld)), tail=ld)
    write('interp-nonul', phdrs=ph_with(len(phs) - 1, type=PT_INTERP, offset=len(data),
                                        filesz=len(ld) - 1, memsz=len(ld) - 1), tail=ld)
    write('no-load', phdrs=[[0x6474e551] + p[1:] for p in phs])


main()
