<?php
// Acts on the test WordPress through its own PHP API (tests/support/wordpress.ts):
// `php act.php` with a JSON array of actions on stdin, prints a JSON array of
// their results. An action that fails prints {"error": "..."} and exits 1.
$actions = json_decode(stream_get_contents(STDIN), true);
$config = json_decode(file_get_contents(__DIR__ . '/site.json'), true);
$_SERVER['HTTP_HOST'] = $config['host'];
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['REQUEST_METHOD'] = 'GET';
if (($actions[0]['action'] ?? '') === 'install') define('WP_INSTALLING', true);
require __DIR__ . '/wp/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/file.php';
require_once ABSPATH . 'wp-admin/includes/media.php';
require_once ABSPATH . 'wp-admin/includes/image.php';
require_once ABSPATH . 'wp-admin/includes/post.php';
require_once ABSPATH . 'wp-admin/includes/user.php';

function fail($message) {
    fwrite(STDOUT, json_encode(['error' => $message]));
    exit(1);
}
function check($value, $what) {
    if (is_wp_error($value)) fail("$what: " . $value->get_error_message());
    if ($value === false || $value === 0 || $value === null) fail("$what failed");
    return $value;
}
function term_ids($names, $taxonomy) {
    $ids = [];
    foreach ($names ?? [] as $name) {
        $term = get_term_by('name', $name, $taxonomy) ?: get_term_by('slug', $name, $taxonomy);
        if (!$term) {
            $made = check(wp_insert_term($name, $taxonomy), "term $name");
            $ids[] = (int) $made['term_id'];
        } else {
            $ids[] = (int) $term->term_id;
        }
    }
    return $ids;
}
function attach_image($file, $post_id) {
    // media_handle_sideload moves its file: it gets a copy.
    $copy = wp_tempnam(basename($file));
    copy($file, $copy);
    $id = media_handle_sideload(['name' => basename($file), 'tmp_name' => $copy], $post_id);
    return check($id, "attaching $file");
}
function post_fields($a) {
    $fields = [];
    foreach (['title' => 'post_title', 'content' => 'post_content', 'excerpt' => 'post_excerpt',
              'status' => 'post_status', 'date' => 'post_date', 'slug' => 'post_name',
              'password' => 'post_password'] as $key => $field) {
        if (array_key_exists($key, $a)) $fields[$field] = $a[$key];
    }
    if (isset($a['author'])) {
        $user = get_user_by('login', $a['author']);
        if (!$user) fail("no user {$a['author']}");
        $fields['post_author'] = $user->ID;
    }
    if (array_key_exists('categories', $a)) $fields['post_category'] = term_ids($a['categories'], 'category');
    if (array_key_exists('tags', $a)) $fields['tags_input'] = $a['tags'];
    return $fields;
}

$results = [];
foreach ($actions as $a) {
    switch ($a['action']) {
        case 'install':
            // With a permalink structure already, wp_install does not try structures out by
            // requesting the site over HTTP (two WordPress page loads).
            $structure = fn() => '/%year%/%monthnum%/%postname%/';
            add_filter('pre_option_permalink_structure', $structure);
            $done = wp_install($a['title'], 'admin', 'admin@example.invalid', true, '', $a['password']);
            if (is_wp_error($done)) fail($done->get_error_message());
            remove_filter('pre_option_permalink_structure', $structure);
            update_option('permalink_structure', '/%year%/%monthnum%/%postname%/');
            update_option('timezone_string', 'Asia/Kolkata');
            update_option('posts_per_page', 10);
            $GLOBALS['wp_rewrite']->init();
            flush_rewrite_rules(false);
            wp_delete_post(1, true); // "Hello world!"
            wp_delete_post(2, true); // the sample page
            wp_delete_post(3, true); // the privacy policy draft
            $results[] = ['admin' => (int) $done['user_id']];
            break;
        case 'user':
            $id = check(wp_insert_user([
                'user_login' => $a['login'], 'user_pass' => $a['password'] ?? wp_generate_password(),
                'display_name' => $a['name'] ?? $a['login'], 'user_email' => $a['login'] . '@example.invalid',
                'role' => $a['role'] ?? 'author', 'description' => $a['description'] ?? '',
            ]), "user {$a['login']}");
            $results[] = ['id' => $id];
            break;
        case 'category':
            $made = check(wp_insert_term($a['name'], 'category', array_filter(['slug' => $a['slug'] ?? null])), "category {$a['name']}");
            $results[] = ['id' => (int) $made['term_id']];
            break;
        case 'applicationPassword':
            $user = get_user_by('login', $a['user']);
            if (!$user) fail("no user {$a['user']}");
            $made = check(WP_Application_Passwords::create_new_application_password($user->ID, ['name' => 'sukti test']), 'application password');
            $results[] = ['password' => $made[0]];
            break;
        case 'create':
            $fields = post_fields($a) + ['post_status' => 'publish', 'post_type' => 'post'];
            $id = check(wp_insert_post(wp_slash($fields), true), 'creating a post');
            if (isset($a['image'])) set_post_thumbnail($id, attach_image($a['image'], $id));
            $results[] = ['id' => $id];
            break;
        case 'update':
            $fields = post_fields($a) + ['ID' => $a['id']];
            check(wp_update_post(wp_slash($fields), true), "updating post {$a['id']}");
            $results[] = ['id' => $a['id']];
            break;
        case 'image':
            $att = attach_image($a['image'], $a['id']);
            set_post_thumbnail($a['id'], $att);
            $results[] = ['id' => $att];
            break;
        case 'removeImage':
            delete_post_thumbnail($a['id']);
            $results[] = ['id' => $a['id']];
            break;
        case 'trash':
            check(wp_trash_post($a['id']), "trashing post {$a['id']}");
            $results[] = ['id' => $a['id']];
            break;
        case 'untrash':
            check(wp_untrash_post($a['id']), "restoring post {$a['id']}");
            $results[] = ['id' => $a['id']];
            break;
        case 'delete':
            check(wp_delete_post($a['id'], true), "deleting post {$a['id']}");
            $results[] = ['id' => $a['id']];
            break;
        case 'get':
            $post = get_post($a['id']);
            $results[] = $post ? [
                'id' => $post->ID, 'title' => $post->post_title, 'status' => $post->post_status,
                'modified_gmt' => $post->post_modified_gmt, 'thumbnail' => (int) get_post_thumbnail_id($post),
            ] : null;
            break;
        case 'makeImage':
            wp_mkdir_p(dirname($a['path']));
            $image = imagecreatetruecolor($a['width'], $a['height']);
            [$r, $g, $b] = $a['rgb'];
            imagefill($image, 0, 0, imagecolorallocate($image, $r, $g, $b));
            imagestring($image, 5, 10, 10, $a['text'] ?? '', imagecolorallocate($image, 255 - $r, 255 - $g, 255 - $b));
            check(imagejpeg($image, $a['path'], 85), "writing {$a['path']}");
            $results[] = ['path' => $a['path']];
            break;
        default:
            fail("unknown action {$a['action']}");
    }
}
echo json_encode($results);
