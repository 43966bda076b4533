/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A fake libibumad for tests: its device side (init, ports, agents, send, receive; the buffer
 * accessors stay libibumad's), so the core's MAD engine runs unchanged on the answers a test
 * decides. Each test defines fake_umad_answer, called for every MAD sent on the open port. */
#ifndef FAKE_UMAD_H
#define FAKE_UMAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAKE_UMAD_MAX 512 /* room for libibumad's header and a MAD */

/** The test's part: a MAD was sent (a umad buffer of fake_umad_bytes()); queue what comes
 * back with fake_umad_queue. 0, or -errno for a send that fails. */
int fake_umad_answer(void *umad, int length);

/** A umad buffer as the engine allocates it: libibumad's header, then the MAD. */
size_t fake_umad_bytes(void);

/** Start the answer to a sent umad in reply (FAKE_UMAD_MAX bytes): a copy of it with the
 * response bit set; returns the answer's MAD (its attribute data at IB_PC_DATA_OFFS, or
 * IB_SMP_DATA_OFFS) and *lid, the LID it was sent to. */
uint8_t *fake_umad_reply(const void *umad, uint8_t *reply, uint16_t *lid);

/** Queue a MAD to be received with that length and status; false when the queue is full (it
 * is dropped, as by the kernel's receive queue). */
bool fake_umad_queue(const void *umad, int length, uint32_t status);

/** Forget the MADs nobody received (they go with the port). */
void fake_umad_drain(void);

/** How many times a port was opened. */
int fake_umad_opens(void);

/** Whether an agent that asks for unsolicited MADs (a method mask) is refused with -EBUSY, as
 * the kernel refuses a second receiver of a class and method. */
void fake_umad_refuse_listeners(bool refuse);

/** The device resets: the descriptor open now fails every send and receive with EIO for good,
 * as ib_umad's does once its device is gone; only a port opened afterwards works. */
void fake_umad_reset(void);

#endif
