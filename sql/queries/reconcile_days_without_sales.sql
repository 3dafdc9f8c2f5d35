-- Days of the windows (rc_window) that no sales report covers (rc_period).
SELECT count(*) AS days FROM rc_window w, generate_series(w.first_day, w.last_day, interval '1 day') d(day)
WHERE NOT EXISTS (SELECT 1 FROM rc_period p WHERE p.source = 'sales'
    AND d.day::date BETWEEN p.begin_date AND p.end_date)
