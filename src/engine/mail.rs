//! Messages on their way. The queue's events name a message by its [`Slot`] here rather than
//! carry it, so they stay a few words long however large a message is: a message is moved in
//! once when it is put on the wire and out once when its event comes due.

use super::msg::Msg;

/// Where a message waits in [`Mail`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(u32);

/// The messages in flight, in reusable slots.
#[derive(Default)]
pub struct Mail {
    slots: Vec<Option<Msg>>,
    /// Slots emptied, reused last-freed first.
    free: Vec<u32>,
}

impl Mail {
    /// Keeps `msg` until [`Mail::take`]; returns its slot.
    pub fn put(&mut self, msg: Msg) -> Slot {
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = Some(msg);
                Slot(i)
            }
            None => {
                self.slots.push(Some(msg));
                Slot(
                    u32::try_from(self.slots.len() - 1)
                        .expect("fewer than 2^32 messages in flight"),
                )
            }
        }
    }

    /// The message in `slot`, which is free again; `None` if it was already taken.
    pub fn take(&mut self, slot: Slot) -> Option<Msg> {
        let msg = self.slots.get_mut(slot.0 as usize)?.take();
        if msg.is_some() {
            self.free.push(slot.0);
        }
        msg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn promote(epoch: u64) -> Msg {
        Msg::Promote { epoch }
    }

    #[test]
    fn a_message_comes_out_once_and_its_slot_is_reused() {
        let mut mail = Mail::default();
        let a = mail.put(promote(1));
        let b = mail.put(promote(2));
        assert_eq!(mail.take(a), Some(promote(1)));
        assert_eq!(mail.take(a), None);
        let c = mail.put(promote(3));
        assert_eq!(c, a);
        assert_eq!(mail.take(b), Some(promote(2)));
        assert_eq!(mail.take(c), Some(promote(3)));
    }
}
