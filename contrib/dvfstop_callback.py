# dvfstop_callback.py: exact fine-tune progress for dvfstop.
#
# Interpreter: python3 >= 3.8, the one that runs your training.  Needs
# nothing but the standard library; with Hugging Face transformers
# installed, DvfstopCallback is a transformers.TrainerCallback.
#
# Use (copy this file next to your script, or put contrib/ on PYTHONPATH):
#
#     from dvfstop_callback import DvfstopCallback
#     trainer = Trainer(...)
#     trainer.add_callback(DvfstopCallback())
#     trainer.train()
#
# and run the script under dvfstop:  dvfstop -- python3 train.py
# dvfstop sets $DVFSTOP_PROGRESS to a file it follows; this callback appends
# one line per optimizer step to it:
#
#     step N tokens T samples S total M
#
# N is state.global_step, M state.max_steps, S the samples seen (steps x
# batch size x gradient accumulation x processes), T
# state.num_input_tokens_seen, which transformers counts only with
# TrainingArguments(include_num_input_tokens_seen=True); without it the
# tokens field is left out.  Fields that are unknown are left out.
# Without $DVFSTOP_PROGRESS (not under dvfstop) the callback does nothing.
# Writing never blocks or raises into the training loop: a failed write is
# dropped and the file is reopened at the next step.
import os

try:
    from transformers import TrainerCallback as _Base
except Exception:  # transformers missing or broken: duck typing is enough
    class _Base(object):
        pass


class DvfstopCallback(_Base):
    """Append "step N tokens T samples S total M" lines to $DVFSTOP_PROGRESS."""

    def __init__(self, path=None):
        self.path = path if path is not None else os.environ.get("DVFSTOP_PROGRESS")
        self._fd = None

    # -- writing ---------------------------------------------------------
    def _write(self, line):
        if not self.path:
            return
        data = (line + "\n").encode("ascii")
        try:
            if self._fd is None:
                # O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead
                # of blocking the training; no effect on a regular file
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT |
                                   os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o644)
            os.write(self._fd, data)  # one write per line: appends stay whole
        except OSError:
            # ENXIO (FIFO without reader), EAGAIN (full), EPIPE, ENOSPC ...:
            # drop this line, reopen next time; the training goes on
            self._close()

    def _close(self):
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    # -- what to write -----------------------------------------------------
    @staticmethod
    def _int(x):
        try:
            v = int(x)
        except (TypeError, ValueError):
            return None
        return v if v >= 0 else None

    def _line(self, args, state):
        step = self._int(getattr(state, "global_step", None))
        if step is None:
            return None
        parts = ["step %d" % step]
        tokens = self._int(getattr(state, "num_input_tokens_seen", None))
        if tokens:
            parts.append("tokens %d" % tokens)
        batch = self._int(getattr(state, "train_batch_size", None))
        if not batch:
            batch = self._int(getattr(args, "per_device_train_batch_size", None))
        accum = self._int(getattr(args, "gradient_accumulation_steps", 1)) or 1
        world = self._int(getattr(args, "world_size", 1)) or 1
        if batch:
            parts.append("samples %d" % (step * batch * accum * world))
        total = self._int(getattr(state, "max_steps", None))
        if total:
            parts.append("total %d" % total)
        return " ".join(parts)

    def _report(self, args, state):
        # only one process of a distributed run speaks
        if not getattr(state, "is_world_process_zero", True):
            return
        line = self._line(args, state)
        if line:
            self._write(line)

    # -- TrainerCallback events --------------------------------------------
    def on_train_begin(self, args, state, control, **kwargs):
        self._report(args, state)  # step 0 (or the resumed step) and the total
        return control

    def on_step_end(self, args, state, control, **kwargs):
        self._report(args, state)
        return control

    def on_train_end(self, args, state, control, **kwargs):
        self._close()
        return control
