<?php
// Must-use plugin of the test WordPress (tests/support/wordpress.ts).
// PHP's built-in server is neither Apache nor nginx: WordPress would think
// URL rewriting is off; the router script does rewrite.
add_filter('got_url_rewrite', '__return_true');
// No mail leaves a test (there is no sendmail either).
if (!function_exists('wp_mail')) {
    function wp_mail() { return true; }
}
