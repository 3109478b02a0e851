package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// S3 is a Store in an S3 bucket, optionally under a key prefix. Gets
// stream the object's body; puts go through the transfer manager, which
// uploads large bodies in parts without holding them whole.
type S3 struct {
	client *s3.Client
	up     *transfermanager.Client
	bucket string
	prefix string // "" or ending in "/"
}

// S3Options configure NewS3.
type S3Options struct {
	// Endpoint is the URL of an S3-compatible server (e.g.
	// http://127.0.0.1:7070); empty means AWS. With an endpoint, requests
	// use path-style addressing.
	Endpoint string
	// Region defaults to the standard AWS chain's, or us-east-1.
	Region string
}

// ParseS3URL splits s3://bucket[/prefix] into bucket and prefix.
func ParseS3URL(s string) (bucket, prefix string, err error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return "", "", fmt.Errorf("invalid S3 URL %q: want s3://bucket[/prefix]", s)
	}
	prefix = strings.Trim(u.Path, "/")
	if prefix != "" {
		if err := CheckKey(prefix); err != nil {
			return "", "", fmt.Errorf("invalid S3 URL %q: %v", s, err)
		}
		prefix += "/"
	}
	return u.Host, prefix, nil
}

// NewS3 returns a Store for s3://bucket[/prefix], with region and
// credentials from the standard AWS chain (environment, shared files,
// instance or Lambda role).
func NewS3(ctx context.Context, rawURL string, o S3Options) (*S3, error) {
	bucket, prefix, err := ParseS3URL(rawURL)
	if err != nil {
		return nil, err
	}
	var opts []func(*config.LoadOptions) error
	if o.Region != "" {
		opts = append(opts, config.WithRegion(o.Region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	client := s3.NewFromConfig(cfg, func(so *s3.Options) {
		if o.Endpoint != "" {
			so.BaseEndpoint = aws.String(o.Endpoint)
			so.UsePathStyle = true
			// S3-compatible servers do not all take the SDK's default
			// streaming checksums; send them only where required.
			so.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		}
	})
	return &S3{client: client, up: transfermanager.New(client), bucket: bucket, prefix: prefix}, nil
}

// String returns s3://bucket/prefix.
func (s *S3) String() string { return "s3://" + s.bucket + "/" + s.prefix }

func (s *S3) full(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return s.prefix + key, nil
}

// isNotFound tells S3's missing-key errors (NoSuchKey from GET, a bare 404
// NotFound from HEAD).
func isNotFound(err error) bool {
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	if errors.As(err, &nsk) || errors.As(err, &nf) {
		return true
	}
	var ae smithy.APIError
	return errors.As(err, &ae) && (ae.ErrorCode() == "NoSuchKey" || ae.ErrorCode() == "NotFound")
}

func (s *S3) wrap(key string, err error) error {
	if isNotFound(err) {
		return fmt.Errorf("%s%s: %w", s, key, ErrNotFound)
	}
	return fmt.Errorf("%s%s: %w", s, key, err)
}

func etag(p *string) string { return strings.Trim(aws.ToString(p), `"`) }

// version is an object's version id; "null" (an object written before
// versioning was enabled, or without it) is none.
func version(p *string) string {
	if v := aws.ToString(p); v != "null" {
		return v
	}
	return ""
}

// Get streams the object at key.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, Object, error) {
	k, err := s.full(key)
	if err != nil {
		return nil, Object{}, err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &k})
	if err != nil {
		return nil, Object{}, s.wrap(key, err)
	}
	obj := Object{Key: key, Size: aws.ToInt64(out.ContentLength), ETag: etag(out.ETag), VersionID: version(out.VersionId), ContentType: aws.ToString(out.ContentType)}
	if out.LastModified != nil {
		obj.ModTime = out.LastModified.UTC()
	}
	return out.Body, obj, nil
}

// Put uploads body to key, in parts when it is large.
func (s *S3) Put(ctx context.Context, key string, body io.Reader) error {
	k, err := s.full(key)
	if err != nil {
		return err
	}
	in := &transfermanager.UploadObjectInput{Bucket: &s.bucket, Key: &k, Body: body}
	if ct := ContentType(key); ct != "" {
		in.ContentType = &ct
	}
	if _, err := s.up.UploadObject(ctx, in); err != nil {
		return s.wrap(key, err)
	}
	return nil
}

// PutIf writes body to key with If-Match (the ETag, quoted) or, for
// ifMatch "", If-None-Match: *. S3 answers 412 Precondition Failed when
// the object is not as asked, and 409 ConditionalRequestConflict when
// another conditional write of the key is under way; both are
// ErrPrecondition: another writer got there first.
func (s *S3) PutIf(ctx context.Context, key string, body []byte, ifMatch string) (string, error) {
	k, err := s.full(key)
	if err != nil {
		return "", err
	}
	in := &s3.PutObjectInput{Bucket: &s.bucket, Key: &k, Body: bytes.NewReader(body), ContentLength: aws.Int64(int64(len(body)))}
	if ct := ContentType(key); ct != "" {
		in.ContentType = &ct
	}
	if ifMatch == "" {
		in.IfNoneMatch = aws.String("*")
	} else {
		in.IfMatch = aws.String(`"` + ifMatch + `"`)
	}
	out, err := s.client.PutObject(ctx, in)
	if err != nil {
		var ae smithy.APIError
		if errors.As(err, &ae) && (ae.ErrorCode() == "PreconditionFailed" || ae.ErrorCode() == "ConditionalRequestConflict") ||
			ifMatch != "" && isNotFound(err) {
			return "", fmt.Errorf("%s%s: %w", s, key, ErrPrecondition)
		}
		return "", s.wrap(key, err)
	}
	return etag(out.ETag), nil
}

// Head describes the object at key.
func (s *S3) Head(ctx context.Context, key string) (Object, error) {
	k, err := s.full(key)
	if err != nil {
		return Object{}, err
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &k})
	if err != nil {
		return Object{}, s.wrap(key, err)
	}
	obj := Object{Key: key, Size: aws.ToInt64(out.ContentLength), ETag: etag(out.ETag), VersionID: version(out.VersionId), ContentType: aws.ToString(out.ContentType)}
	if out.LastModified != nil {
		obj.ModTime = out.LastModified.UTC()
	}
	return obj, nil
}

// List pages through the keys under prefix.
func (s *S3) List(ctx context.Context, prefix string) ([]Object, error) {
	full := s.prefix + prefix
	var out []Object
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: &full})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: list %s: %w", s, prefix, err)
		}
		for _, o := range page.Contents {
			obj := Object{Key: strings.TrimPrefix(aws.ToString(o.Key), s.prefix), Size: aws.ToInt64(o.Size), ETag: etag(o.ETag)}
			if o.LastModified != nil {
				obj.ModTime = o.LastModified.UTC()
			}
			out = append(out, obj)
		}
	}
	return out, nil
}

// Delete removes the object at key.
func (s *S3) Delete(ctx context.Context, key string) error {
	k, err := s.full(key)
	if err != nil {
		return err
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &k}); err != nil && !isNotFound(err) {
		return s.wrap(key, err)
	}
	return nil
}

// Open returns the Store for a --store argument: s3://bucket[/prefix] or
// a local folder.
func Open(ctx context.Context, arg string, o S3Options) (Store, error) {
	if strings.HasPrefix(arg, "s3://") {
		return NewS3(ctx, arg, o)
	}
	return NewLocal(arg)
}
