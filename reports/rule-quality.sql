-- title: Rule quality
-- description: What analysts decided about each rule's flags (docs/triage.md), per rule (rule_version and settings
--   all), per rule version and per threshold setting (the rule's [detection.<rule>] values the flags were found
--   with; lists by their count and a digest): flags confirmed, dismissed (by reason), still open, the share confirmed
--   of those decided, and the median hours from a flag's first appearance to its first decision. A decided flag
--   counts under the version and settings it was decided on; an open one under its current ones. A rule with many
--   dismissals of one reason is the one to tune ([detection.<rule>] in iap-audit.toml). Superseded flags are left
--   out.
-- param: rule text = null -- only this rule, e.g. purchase-velocity
-- sensitive: false

WITH decided AS (
    -- Each flag's latest confirm or dismiss (what its status rests on) and its first decision of any kind but a note.
    SELECT d.flag_id,
           (array_agg(d.rule_version ORDER BY d.id DESC)
               FILTER (WHERE d.action IN ('confirm', 'dismiss')))[1] AS decided_version,
           (array_agg(d.reason ORDER BY d.id DESC) FILTER (WHERE d.action IN ('confirm', 'dismiss')))[1] AS reason,
           (array_agg(d.settings ORDER BY d.id DESC) FILTER (WHERE d.action IN ('confirm', 'dismiss')))[1]
               AS decided_settings,
           min(d.decided_at) FILTER (WHERE d.action IN ('confirm', 'dismiss')) AS first_decided_at
    FROM flag_decision d
    GROUP BY d.flag_id
), per_flag AS (
    SELECT f.rule,
           CASE WHEN f.status IN ('confirmed', 'dismissed') THEN coalesce(x.decided_version, f.rule_version)
                ELSE f.rule_version END AS rule_version,
           CASE WHEN f.status IN ('confirmed', 'dismissed') THEN x.decided_settings ELSE f.settings END
               AS settings_json,
           f.status,
           CASE WHEN f.status = 'dismissed' THEN x.reason END AS reason,
           extract(epoch FROM x.first_decided_at - f.created_at) / 3600 AS hours_to_decision
    FROM flag f
    LEFT JOIN decided x ON x.flag_id = f.id
    WHERE f.status <> 'superseded' AND ($1::text IS NULL OR f.rule = $1)
), per_setting AS (
    -- The settings as a reader compares them: name=value, sorted by name; a list of more than 5 (tester_account_keys)
    -- by its count and the first 8 hex digits of its MD5, as its keys are long.
    SELECT q.*,
           CASE WHEN q.settings_json IS NULL THEN 'not recorded'
                WHEN q.settings_json = '{}'::jsonb THEN 'none'
                ELSE (SELECT string_agg(e.key || '=' || CASE
                          WHEN jsonb_typeof(e.value) = 'array' AND jsonb_array_length(e.value) > 5
                              THEN jsonb_array_length(e.value) || ' values #' || left(md5(e.value::text), 8)
                          WHEN jsonb_typeof(e.value) = 'string' THEN e.value #>> '{}'
                          ELSE e.value::text END, '; ' ORDER BY e.key)
                      FROM jsonb_each(q.settings_json) e)
           END AS settings
    FROM per_flag q
)
SELECT p.rule,
       CASE WHEN grouping(p.rule_version) = 1 THEN 'all' ELSE p.rule_version::text END AS rule_version,
       CASE WHEN grouping(p.settings) = 1 THEN 'all' ELSE p.settings END AS settings,
       count(*) AS flags,
       count(*) FILTER (WHERE p.status = 'confirmed') AS confirmed,
       count(*) FILTER (WHERE p.status = 'dismissed') AS dismissed,
       count(*) FILTER (WHERE p.reason = 'family-sharing') AS dismissed_family_sharing,
       count(*) FILTER (WHERE p.reason = 'tester') AS dismissed_tester,
       count(*) FILTER (WHERE p.reason = 'known-whale') AS dismissed_known_whale,
       count(*) FILTER (WHERE p.reason = 'duplicate') AS dismissed_duplicate,
       count(*) FILTER (WHERE p.reason = 'data-error') AS dismissed_data_error,
       count(*) FILTER (WHERE p.reason = 'other') AS dismissed_other,
       count(*) FILTER (WHERE p.status = 'open') AS open,
       round(100.0 * count(*) FILTER (WHERE p.status = 'confirmed')
           / nullif(count(*) FILTER (WHERE p.status IN ('confirmed', 'dismissed')), 0), 1) AS confirmed_percent,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY p.hours_to_decision))::numeric, 1)
           AS median_hours_to_decision
FROM per_setting p
GROUP BY GROUPING SETS ((p.rule), (p.rule, p.rule_version), (p.rule, p.settings))
ORDER BY p.rule, grouping(p.rule_version) + grouping(p.settings) DESC, grouping(p.rule_version), p.rule_version,
         p.settings
