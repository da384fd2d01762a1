//! `[client]`: retries and service time.

use super::Validator;
use crate::scenario::defaults;
use crate::scenario::locate::KeyPath;
use crate::scenario::raw::{RawClient, RawFlush, RawRetry};
use crate::scenario::{ClientSpec, Flush};
use crate::time::SimDuration;

impl Validator<'_, '_> {
    /// `[client] flush`: whole seconds, a flush shorter than the time between flushes.
    fn flush(&mut self, at: &KeyPath, f: &RawFlush) -> Option<Flush> {
        let every = self.duration(&at.key("every"), &f.every)?;
        let length = self.duration(&at.key("for"), &f.length)?;
        let whole = |d: SimDuration| d.as_micros().is_multiple_of(1_000_000);
        if !whole(every) || every < SimDuration::from_secs(2) || every > SimDuration::from_secs(3_600) {
            self.err(&at.key("every"), format!("every must be whole seconds from 2s to 1h, not {}", f.every));
            return None;
        }
        if !whole(length) || length == SimDuration::ZERO || length >= every {
            self.err(
                &at.key("for"),
                format!("for must be whole seconds, at least 1s and shorter than every ({}), not {}", f.every, f.length),
            );
            return None;
        }
        Some(Flush { every_s: every.as_secs(), for_s: length.as_secs() })
    }

    pub(super) fn client(&mut self, at: &KeyPath, c: &RawClient) -> ClientSpec {
        let service_time = self.opt_duration(&at.key("service_time"), c.service_time.as_ref(), defaults::SERVICE_TIME);
        if let Some(f) = &c.fleet {
            self.shown_name(&at.key("fleet"), f);
        }
        let instances = c.instances.unwrap_or(defaults::INSTANCES);
        if instances == 0 || instances > 1_000_000 {
            self.err(&at.key("instances"), format!("instances must be between 1 and 1000000, not {instances}"));
        }
        let flush = c.flush.as_ref().and_then(|f| self.flush(&at.key("flush"), f));
        let mut spec = ClientSpec {
            attempts: 4,
            throttle_base: SimDuration::from_secs(1),
            cap: defaults::RETRY_CAP,
            quota: defaults::RETRY_QUOTA,
            throttle_cost: defaults::RETRY_THROTTLE_COST,
            jitter: true,
            service_time,
            instances: instances.max(1),
            flush,
            preset: "sdk-2026",
        };
        match &c.retry {
            None => {}
            Some(RawRetry::Preset(p)) => match p.as_str() {
                "sdk-2026" => {}
                "legacy" => {
                    // Pre-2026 DynamoDB defaults of most SDKs: 10 retries, 25 ms base, no quota.
                    spec.attempts = 11;
                    spec.throttle_base = SimDuration::from_millis(25);
                    spec.quota = 0;
                    spec.preset = "legacy";
                }
                "legacy-no-jitter" => {
                    // Older SDKs: the legacy schedule without jitter, so throttled clients
                    // retry in step (25, 50, 100 ms, ...).
                    spec.attempts = 11;
                    spec.throttle_base = SimDuration::from_millis(25);
                    spec.quota = 0;
                    spec.jitter = false;
                    spec.preset = "legacy-no-jitter";
                }
                "none" => {
                    spec.attempts = 1;
                    spec.preset = "none";
                }
                other => self.err(
                    &at.key("retry"),
                    format!(
                        "unknown retry preset \"{other}\"; use \"sdk-2026\", \"legacy\", \"legacy-no-jitter\", \"none\" or {{ attempts = .., base = .. }}"
                    ),
                ),
            },
            Some(RawRetry::Explicit(e)) => {
                let rp = at.key("retry");
                if e.attempts == 0 || e.attempts > 100 {
                    self.err(&rp.key("attempts"), format!("attempts (the first included) must be 1 to 100, not {}", e.attempts));
                }
                spec.attempts = e.attempts.clamp(1, 100) as u32;
                let base = self.opt_duration(&rp.key("base"), e.base.as_ref(), defaults::RETRY_BASE);
                spec.throttle_base = self.opt_duration(&rp.key("throttle_base"), e.throttle_base.as_ref(), base);
                spec.cap = self.opt_duration(&rp.key("cap"), e.cap.as_ref(), defaults::RETRY_CAP);
                if spec.cap == SimDuration::ZERO {
                    self.err(&rp.key("cap"), "the backoff cap must be longer than zero");
                }
                spec.quota = e.quota.unwrap_or(defaults::RETRY_QUOTA);
                spec.throttle_cost = e.throttle_cost.unwrap_or(defaults::RETRY_THROTTLE_COST);
                spec.jitter = match e.jitter.as_deref() {
                    None | Some("full") => true,
                    Some("none") => false,
                    Some(other) => {
                        self.err(&rp.key("jitter"), format!("jitter is \"full\" or \"none\", not \"{}\"", other.chars().take(32).collect::<String>()));
                        true
                    }
                };
                spec.preset = "explicit";
            }
        }
        spec
    }
}
