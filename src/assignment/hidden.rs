//! How a sealed assignment keeps its answers out of sight: an expected answer as a salted
//! SHA-256 hash (so a grader can say right or wrong without the answer in the file), and a
//! hint, explanation or feedback text encoded as base64 (so it is not read by opening the
//! file, yet can be shown after a give-up).
//!
//! Spoiler-proofing, not security: a question has few options, and anyone can hash each one;
//! the encoded texts decode with any base64 tool. The grade's guarantee is that every attempt
//! is re-run ([`super::grade()`]).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// The hash of `answer` to task `task` under `salt`, as 64 lowercase hex digits. The task's id
/// is in it so the same answer to two questions hashes differently.
pub fn hash(salt: &str, task: &str, answer: &str) -> String {
    let digest = Sha256::new()
        .chain_update(salt.as_bytes())
        .chain_update(b"\n")
        .chain_update(task.as_bytes())
        .chain_update(b"\n")
        .chain_update(answer.as_bytes())
        .finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `answer` is the one `expected` was made from ([`hash`]).
pub fn matches(salt: &str, task: &str, answer: &str, expected: &str) -> bool {
    hash(salt, task, answer).eq_ignore_ascii_case(expected)
}

/// `text` encoded to be shown later but not read at a glance.
pub fn encode(text: &str) -> String {
    STANDARD.encode(text.as_bytes())
}

/// The text [`encode`] made, or `None` if `encoded` is not such a text.
pub fn decode(encoded: &str) -> Option<String> {
    let bytes = STANDARD.decode(encoded.trim()).ok()?;
    String::from_utf8(bytes).ok()
}

/// A salt for a key whose text is `key`: derived from the key itself, so sealing the same key
/// twice writes the same file (a teacher can keep it under version control), while two
/// assignments get different salts.
pub fn salt_for(key: &str) -> String {
    hash("locksim assignment salt", "", key)[..32].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_matches_its_answer_only() {
        let h = hash("s", "q1", "2");
        assert_eq!(h.len(), 64);
        assert!(matches("s", "q1", "2", &h));
        assert!(!matches("s", "q1", "3", &h));
        assert!(!matches("t", "q1", "2", &h), "another salt");
        assert!(!matches("s", "q2", "2", &h), "another task");
    }

    #[test]
    fn encoded_text_comes_back() {
        let text = "Pause A for longer than the lease — 12 000 ms.";
        let encoded = encode(text);
        assert!(!encoded.contains("Pause"));
        assert_eq!(decode(&encoded).as_deref(), Some(text));
        assert_eq!(decode("not base64!"), None);
    }
}
