package sched

// Counting semaphores: event resources whose pending signals are counted
// instead of kept as one flag. They model the kernel objects that queue
// what a writer hands over until a reader takes it:
//
//   - a pipe or an AF_UNIX stream socket holding messages: pipe_write()
//     (fs/pipe.c) appends to the ring and wakes a reader blocked in
//     pipe_read() with wake_up_interruptible_sync_poll() (WF_SYNC); a
//     reader that finds data takes one message and does not block; a
//     writer that finds the ring full blocks on pipe->wr_wait until a
//     reader frees room. Counted messages are a semaphore "data" signalled
//     per write; the room is a second semaphore "space" whose initial count
//     is the buffer capacity in messages.
//   - child exits reaped by wait4(): every exit_notify() -> do_notify_parent()
//     -> __wake_up_parent() (__wake_up_sync_key(), WF_SYNC) leaves one zombie
//     that one wait4() reaps, so no exit is lost when the parent is busy.
//   - sem_post()/sem_wait() on a futex-backed POSIX semaphore.
//
// Semantics: wait takes one count if there is one (no block), else blocks;
// signal wakes the first waiter (FIFO) if there is one, else adds one count.
// broadcast wakes every waiter and adds nothing. SIMPLIFIED: a pipe wakes
// its writers when a reader frees room (pipe_read() wakes wr_wait only if
// the pipe was full, once per freed page); here each freed message slot
// is one signal, which wakes one blocked writer at most.

// semWait takes one count of a semaphore resource; it reports whether
// there was one.
func semWait(r *resState) bool {
	if r.count > 0 {
		r.count--
		return true
	}
	return false
}

// semPost adds one count to a semaphore resource nobody waits on.
func semPost(r *resState) { r.count++ }
